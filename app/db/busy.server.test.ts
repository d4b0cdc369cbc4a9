import { describe, expect, it } from "vitest";
import { isDatabaseBusy, retryWhileDatabaseBusy } from "./busy.server.ts";

/** pg-pool's timeout as Drizzle reports it: the pool's error is the cause of a query error. */
function busyQueryError() {
  return new Error("Failed query: insert into game_messages …", { cause: new Error("timeout exceeded when trying to connect") });
}

function failingTimes(times: number, failure: () => Error) {
  let calls = 0;
  const write = async () => {
    calls += 1;
    if (calls <= times) throw failure();
    return "written";
  };
  return { write, calls: () => calls };
}

describe("isDatabaseBusy", () => {
  it("recognises the pool's timeout, wrapped or bare, and nothing else", () => {
    expect(isDatabaseBusy(busyQueryError())).toBe(true);
    expect(isDatabaseBusy(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseBusy(new Error("Failed query", { cause: new Error("duplicate key value violates unique constraint") }))).toBe(false);
    expect(isDatabaseBusy("timeout exceeded when trying to connect")).toBe(false);
  });
});

describe("retryWhileDatabaseBusy", () => {
  it("writes again while the pool is busy, until the write goes through", async () => {
    const attempt = failingTimes(2, busyQueryError);
    expect(await retryWhileDatabaseBusy(attempt.write, 3)).toBe("written");
    expect(attempt.calls()).toBe(3);
  });

  it("gives up after the last attempt with the busy error", async () => {
    const attempt = failingTimes(5, busyQueryError);
    await expect(retryWhileDatabaseBusy(attempt.write, 2)).rejects.toSatisfy(isDatabaseBusy);
    expect(attempt.calls()).toBe(2);
  });

  it("never repeats a write that failed for another reason: it may have been applied", async () => {
    const attempt = failingTimes(1, () => new Error("Connection terminated unexpectedly"));
    await expect(retryWhileDatabaseBusy(attempt.write, 4)).rejects.toThrow("Connection terminated unexpectedly");
    expect(attempt.calls()).toBe(1);
  });
});
