import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "#tests/helpers/database.ts";
import { runProjectScript, startServerProcess } from "#tests/helpers/process.ts";

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database.drop();
});

async function signUp(url: string, email: string) {
  return fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify({ email, password: "a long enough password", name: "Restart" }),
  });
}

async function signIn(url: string, email: string) {
  return fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: url },
    body: JSON.stringify({ email, password: "a long enough password" }),
  });
}

/** The variables a running process was started with (Linux's /proc). */
function environmentOf(pid: number | undefined) {
  return readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
}

describe("the server process", () => {
  it("keeps its data across a restart and shuts down cleanly on SIGTERM", async () => {
    const first = await startServerProcess(database.env);
    expect((await signUp(first.url, "restart@example.com")).status).toBe(200);
    // On Linux it runs with two malloc arenas (docs/decisions/040): started again in place with
    // the limit, or with the one the operator set.
    if (process.platform === "linux") expect(environmentOf(first.child.pid)).toContain("MALLOC_ARENA_MAX=2");
    const home = await (await fetch(first.url)).text();
    expect(home).toContain("Play as Empress");
    expect(await first.stop()).toBe(0);
    expect(first.output()).toContain("shut down cleanly");

    const second = await startServerProcess({ ...database.env, MALLOC_ARENA_MAX: "4" });
    expect((await signIn(second.url, "restart@example.com")).status).toBe(200);
    if (process.platform === "linux") expect(environmentOf(second.child.pid)).toContain("MALLOC_ARENA_MAX=4");
    expect(await second.stop()).toBe(0);
    // Two process lives, the first migrating and seeding a fresh database: on PGlite with other
    // files running beside it on two cores, that has taken longer than one test's default.
  }, 120_000);

  it("stops with one line naming a bad configuration value", async () => {
    const result = await runProjectScript(["server/main.ts"], { ...database.env, PORT: "not-a-port" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^Invalid configuration: PORT [^\n]+ \(got "not-a-port"\)$/);
  });
});
