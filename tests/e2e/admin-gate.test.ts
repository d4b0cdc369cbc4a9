import { spawn } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect } from "vitest";
import { userRoles } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { seriousAccessibilityViolations } from "#tests/helpers/browser.ts";
import { browserTest as test } from "#tests/helpers/fixtures.ts";
import type { TestServer } from "#tests/helpers/server.ts";

/**
 * Who gets into /admin, in Chromium: a visitor is sent to sign in, a player is told Access
 * Denied, an operator's admin:grant opens the panel, and the role is checked again on every visit
 * and reload. What an admin does inside is admin.test.ts.
 */

const PROJECT = path.resolve(import.meta.dirname, "../..");
const SHOTS = path.join(PROJECT, "test-results", "screenshots", "admin");

// Each test signs in whom it needs, from a browser signed out.
test.beforeEach(async ({ browser }) => {
  await browser.context.clearCookies();
});

/** `npm run admin:grant -- <email>`, as an operator types it, against the running server's data. */
function adminGrant(server: TestServer, email: string) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn("npm", ["run", "--silent", "admin:grant", "--", email], {
      cwd: PROJECT,
      env: { ...process.env, ...server.database.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => resolve({ code, output }));
  });
}

describe("the /admin gate", () => {
  test("sends a signed-out visitor to sign in, coming back to /admin afterwards", async ({ server, page }) => {
    await page.goto(`${server.url}/admin`);
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/auth?redirectTo=%2Fadmin");
    await page.close();
  });

  test("shows a non-admin 'Access Denied' with SPEC's sentence, and Go Back leaves", async ({ server, page, login }) => {
    await login();
    const response = await page.goto(`${server.url}/admin`);
    expect(response?.status()).toBe(403);
    await page.getByRole("heading", { name: ADMIN_TEXTS.accessDeniedTitle }).waitFor();
    await page.getByText(ADMIN_TEXTS.accessDenied).waitFor();
    expect(await page.getByText("Games Management").count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS, "access-denied-1280.png") });
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole("button", { name: ADMIN_TEXTS.goBack }).click();
    await page.waitForURL(`${server.url}/`);
    expect(page.errors.filter((error) => !error.includes("status of 403"))).toEqual([]);
    await page.close();
  });

  test("opens the panel after `npm run admin:grant -- <email>`", async ({ server, page, login }) => {
    await login({ email: "promoted@example.com" });
    expect((await page.goto(`${server.url}/admin`))?.status()).toBe(403);

    const grant = await adminGrant(server, "promoted@example.com");
    expect(grant.output).toContain("promoted@example.com is now an admin.");
    expect(grant.code).toBe(0);

    expect((await page.goto(`${server.url}/admin`))?.status()).toBe(200);
    await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
    await page.getByRole("tab", { name: "Games Management" }).waitFor();
    await page.getByRole("tab", { name: "SEO Content" }).waitFor();
    expect(page.errors.filter((error) => !error.includes("status of 403"))).toEqual([]);
    await page.close();
  });

  test("shows 'Checking permissions...' while a client-side visit is checked, then the panel", async ({ server, page, login }) => {
    await login({ admin: true });
    await page.goto(server.url);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Only the admin route's request is held; the root's data (the navigation bar) comes as usual.
    await page.route(/\/admin\.data\?.*_routes=routes%2Fadmin/, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" }).click();
    await page.getByRole("status").filter({ hasText: ADMIN_TEXTS.checkingPermissions }).waitFor();
    await page.screenshot({ path: path.join(SHOTS, "checking-permissions-1280.png") });
    release();
    await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
    expect(await page.getByText(ADMIN_TEXTS.checkingPermissions).count()).toBe(0);
    expect(page.errors).toEqual([]);
    await page.close();
  });

  test("checks the role again when the panel reloads its data, and shows 'Access Denied' once it is revoked", async ({ server, page, login }) => {
    const demoted = await login({ admin: true });
    await page.goto(`${server.url}/admin`);
    await page.getByRole("heading", { name: "Admin Panel" }).waitFor();
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    const revalidate = () =>
      page.evaluate(() => {
        void (window as unknown as { __reactRouterDataRouter: { revalidate(): Promise<void> } }).__reactRouterDataRouter.revalidate();
      });

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\.data\?.*_routes=routes%2Fadmin/, async (route) => {
      await held;
      await route.continue();
    });
    await revalidate();
    await page.getByRole("status").filter({ hasText: ADMIN_TEXTS.checkingPermissions }).waitFor();
    expect(await page.getByRole("heading", { name: "Admin Panel" }).isVisible()).toBe(true);
    release();
    await page.getByRole("status").filter({ hasText: ADMIN_TEXTS.checkingPermissions }).waitFor({ state: "detached" });
    await page.unroute(/\/admin\.data/);

    await server.connection.db.delete(userRoles).where(eq(userRoles.userId, demoted.userId));
    await revalidate();
    await page.getByRole("heading", { name: ADMIN_TEXTS.accessDeniedTitle }).waitFor();
    expect(await page.getByRole("heading", { name: "Admin Panel" }).count()).toBe(0);
    await page.close();
  });

  test("answers a client-side visit by a non-admin with 'Access Denied' after the check", async ({ server, page, login }) => {
    await login();
    await page.goto(server.url);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/admin\.data\?.*_routes=routes%2Fadmin/, async (route) => {
      await held;
      await route.continue();
    });
    // The router's own client-side navigation, as an in-app link would start it.
    await page.waitForFunction(() => "__reactRouterDataRouter" in window);
    await page.evaluate(() => {
      const router = (window as unknown as { __reactRouterDataRouter: { navigate(to: string): Promise<void> } }).__reactRouterDataRouter;
      void router.navigate("/admin");
    });
    await page.getByText(ADMIN_TEXTS.checkingPermissions).waitFor();
    release();
    await page.getByRole("heading", { name: ADMIN_TEXTS.accessDeniedTitle }).waitFor();
    expect(page.url()).toBe(`${server.url}/admin`);
    await page.close();
  });
});
