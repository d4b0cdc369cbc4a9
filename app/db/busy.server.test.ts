import { describe, expect, it } from "vitest";
import { isDatabaseBusy, isDatabaseUnreachable, retryWhileDatabaseBusy } from "./busy.server.ts";

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

describe("isDatabaseUnreachable", () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it("recognises a refused or lost connection and PostgreSQL going down or coming up, and counts them as busy", () => {
    const unreachable = [
      withCode("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED"),
      withCode("getaddrinfo ENOTFOUND postgres", "ENOTFOUND"),
      withCode("terminating connection due to administrator command", "57P01"),
      withCode("the database system is starting up", "57P03"),
      withCode("connection failure", "08006"),
      new Error("Failed query: select 1", { cause: new Error("Connection terminated unexpectedly") }),
    ];
    for (const error of unreachable) {
      expect(isDatabaseUnreachable(error), error.message).toBe(true);
      expect(isDatabaseBusy(error), error.message).toBe(true);
    }
    expect(isDatabaseUnreachable(busyQueryError())).toBe(false);
    expect(isDatabaseUnreachable(withCode("duplicate key value violates unique constraint", "23505"))).toBe(false);
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
