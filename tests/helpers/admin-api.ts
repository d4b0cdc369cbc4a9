import { makeAdmin, signUp, type TestAccount } from "./accounts.ts";
import { serverTest } from "./fixtures.ts";
import type { TestServer } from "./server.ts";

/** The admin API as an admin calls it over HTTP (tests/integration/admin-api*.test.ts). */

/** A request with the admin's session: its status and JSON body. */
export function adminApi(server: TestServer, admin: TestAccount) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await server.fetch(path, {
      method,
      headers: { Cookie: admin.cookie, ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
}

export type AdminApi = ReturnType<typeof adminApi>;

export const adminApiTest = serverTest
  .extend("admin", { scope: "file" }, async ({ server }) => {
    const admin = await signUp(server);
    await makeAdmin(server, admin);
    return admin;
  })
  .extend("api", { scope: "file" }, ({ server, admin }) => adminApi(server, admin));

export function gameBody(overrides: Record<string, unknown> = {}) {
  return {
    title: "Ice Palace",
    slug: "ice-palace",
    description: "Survive a winter court.",
    prompt: "You are the Game Master of a frozen court.",
    ...overrides,
  };
}
