import { describe, expect, it } from "vitest";
import { FreshRead } from "./fresh-read.ts";

describe("FreshRead", () => {
  it("shares one read between callers that arrive while it has not started yet", async () => {
    let reads = 0;
    const release: (() => void)[] = [];
    const fresh = new FreshRead(
      () =>
        new Promise<number>((resolve) => {
          reads += 1;
          const value = reads;
          release.push(() => resolve(value));
        }),
    );
    const first = fresh.read();
    // These arrive while read 1 runs: it may have started before their change, so they wait for read 2.
    const second = fresh.read();
    const third = fresh.read();
    expect(reads).toBe(1);
    release.shift()?.();
    expect(await first).toBe(1);
    await expect.poll(() => reads).toBe(2);
    release.shift()?.();
    expect(await Promise.all([second, third])).toEqual([2, 2]);
    // Idle again: the next caller starts its own read at once.
    const fourth = fresh.read();
    expect(reads).toBe(3);
    release.shift()?.();
    expect(await fourth).toBe(3);
  });

  it("passes a failed read to its callers and recovers on the next", async () => {
    let fail = true;
    const fresh = new FreshRead(async () => {
      if (fail) throw new Error("down");
      return 1;
    });
    await expect(fresh.read()).rejects.toThrow("down");
    fail = false;
    await expect(fresh.read()).resolves.toBe(1);
  });
});
