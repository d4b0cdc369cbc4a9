import { describe, expect, it } from "vitest";
import { inFlightCount, settleInFlight, trackInFlight } from "./in-flight.server.ts";

describe("work in flight at shutdown", () => {
  it("waits for work that finishes within the grace period", async () => {
    let finished = false;
    trackInFlight(new Promise<void>((resolve) => setTimeout(() => ((finished = true), resolve()), 30)), () => {});
    expect(inFlightCount()).toBe(1);
    await settleInFlight(1000);
    expect(finished).toBe(true);
    expect(inFlightCount()).toBe(0);
  });

  it("stops work that outlasts the grace period, then waits for it to settle", async () => {
    let stopped = false;
    let resolveWork: () => void = () => {};
    trackInFlight(new Promise<void>((resolve) => (resolveWork = resolve)), () => {
      stopped = true;
      setTimeout(resolveWork, 10);
    });
    await settleInFlight(20);
    expect(stopped).toBe(true);
    expect(inFlightCount()).toBe(0);
  });
});
