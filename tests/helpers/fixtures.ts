import { test as base } from "vitest";
import { startAnthropicServer } from "#tests/fakes/anthropic.ts";
import { startOidcProvider } from "#tests/fakes/oidc.ts";
import { startSmtpServer } from "#tests/fakes/smtp.ts";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";
import { makeAdmin, signInBrowser, signUp, type TestAccount } from "./accounts.ts";
import { launchBrowser } from "./browser.ts";
import { setBalance, startServerWithModel } from "./game-chat.ts";
import { startTestServer } from "./server.ts";

/**
 * Vitest fixtures (`test.extend`) for the tests that run the built server, as Epic Stack's
 * tests/playwright-utils.ts gives its Playwright tests a signed-in page. A file asks for what it
 * uses by name — `test("…", async ({ server, page, login }) => …)` — and gets it set up on first
 * use and taken down after the file's last test, even one that failed or timed out.
 *
 * - `server` (one per file): the built app on a database of its own; `serverEnv` adds variables,
 *   set by a file with `test.override("serverEnv", { … })` at its top level.
 * - `browser` (one per file): Debian's Chromium, its tabs' relative addresses on the server;
 *   every tab a test opened is closed after it.
 * - `page` (one per test): a new 1280×800 tab that records console errors.
 * - `login(options)`: a new account, signed up through the real endpoint, whose session cookie is
 *   put into the browser (the sign-in UI is not under test where it is used).
 * - `model` (gameMasterTest): the Game Master's provider as a local fake, `modelProvider` says
 *   which; the server talks to it and has the tests' game (TEST_GAME) in its database.
 */

/** What a builder fixture is handed to clean up after itself. */
interface FixtureTools {
  onCleanup: (cleanup: () => Promise<void> | void) => void;
}

/** Google, as a local OpenID Connect provider, for a file: `.extend("google", { scope: "file" }, fakeGoogle)`. */
export async function fakeGoogle({}: object, { onCleanup }: FixtureTools) {
  const google = await startOidcProvider();
  onCleanup(() => google.stop());
  return google;
}

/** A local SMTP server that keeps what it is sent, for a file: `.extend("smtp", { scope: "file" }, fakeSmtp)`. */
export async function fakeSmtp({}: object, { onCleanup }: FixtureTools) {
  const smtp = await startSmtpServer();
  onCleanup(() => smtp.close());
  return smtp;
}

export type ServerEnv = Record<string, string | undefined>;

export interface LoginOptions {
  email?: string;
  name?: string;
  /** Given the admin role before the browser signs in. */
  admin?: boolean;
  /** The account's balance, set through the ledger (an admin grant or removal). */
  credits?: number;
}

export const serverTest = base
  .extend("serverEnv", { scope: "file" }, {} as ServerEnv)
  .extend("server", { scope: "file" }, async ({ serverEnv }, { onCleanup }) => {
    const server = await startTestServer(serverEnv);
    onCleanup(() => server.close());
    return server;
  });

export const browserTest = serverTest
  // On the server, so it is launched after the server and the fakes it talks to and closed before
  // them: an idle keep-alive socket of Chromium's holds a server's close() for minutes.
  .extend("browser", { scope: "file" }, async ({ server }, { onCleanup }) => {
    const browser = await launchBrowser({ baseURL: server.url });
    onCleanup(() => browser.close());
    return browser;
  })
  // A tab left open would keep its live connections, and its page's scripts, into the next test.
  .extend("tabsClosedAfterEachTest", { auto: true }, async ({ browser }, { onCleanup }) => {
    onCleanup(() => browser.closePages());
  })
  .extend("page", async ({ browser }) => browser.newPage())
  .extend("login", { scope: "file" }, async ({ server, browser }) => {
    return async ({ email, name, admin = false, credits }: LoginOptions = {}): Promise<TestAccount> => {
      const account = await signUp(server, { email, name });
      if (admin) await makeAdmin(server, account);
      if (credits !== undefined) await setBalance(account, credits);
      await signInBrowser(browser.context, server, account);
      return account;
    };
  });

export type ModelProvider = "openai-compatible" | "anthropic";

export const gameMasterTest = serverTest
  .extend("modelProvider", { scope: "file" }, "openai-compatible" as ModelProvider)
  .extend("model", { scope: "file" }, async ({ modelProvider }, { onCleanup }) => {
    const model = await (modelProvider === "anthropic" ? startAnthropicServer() : startOpenAICompatibleServer());
    onCleanup(() => model.close());
    return model;
  })
  .extend("server", { scope: "file" }, async ({ model, modelProvider, serverEnv }, { onCleanup }) => {
    const server = await startServerWithModel(model, { AI_PROVIDER: modelProvider, ...serverEnv });
    onCleanup(() => server.close());
    return server;
  });
