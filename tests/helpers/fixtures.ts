import type { Browser } from "playwright-core";
import { inject, test as base } from "vitest";
import { startAnthropicServer } from "#tests/fakes/anthropic.ts";
import { startOidcProvider } from "#tests/fakes/oidc.ts";
import { startSmtpServer } from "#tests/fakes/smtp.ts";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";
import { makeAdmin, signInBrowser, signUp, type TestAccount } from "./accounts.ts";
import { browserContext, launchBrowser, launchChromium, type TestBrowser } from "./browser.ts";
import { setBalance, startServerWithModel } from "./game-chat.ts";
import { startTestServer, type TestServer } from "./server.ts";

/**
 * Vitest fixtures (`test.extend`) for the tests that run the built server, as Epic Stack's
 * tests/playwright-utils.ts gives its Playwright tests a signed-in page. A file asks for what it
 * uses by name — `test("…", async ({ server, page, login }) => …)` — and gets it set up on first
 * use and taken down after the file's last test, even one that failed or timed out.
 *
 * - `server`: the built app on a database of its own; `serverEnv` adds variables, set by a file
 *   with `test.override("serverEnv", { … })` at its top level. In the "own-server" project one per
 *   file. In a shared project of vitest.e2e.config.ts (`sharedServer` provided) one per worker
 *   process, started by its first file and stopped when the process ends: starting a server and
 *   Chromium cost 5–20 s a file. The configuration is read once per process, so the files of a
 *   shared project must all ask for the same `serverEnv`; a file that asks otherwise fails.
 *   Files sharing a server see each other's rows, so they check only their own.
 * - `browser` (one per file): a browser whose tabs' relative addresses are on the server; every
 *   tab a test opened is closed after it. Its own Chromium in the "own-server" project; in a
 *   shared project a new context on the process's Chromium, so no file finds another's cookies.
 * - `page` (one per test): a new 1280×800 tab that records console errors.
 * - `login(options)`: a new account, signed up through the real endpoint, whose session cookie is
 *   put into the browser (the sign-in UI is not under test where it is used).
 * - `model` (gameMasterTest): the Game Master's provider as a local fake, `modelProvider` says
 *   which; the server talks to it and has the tests' game (TEST_GAME) in its database.
 */

declare module "vitest" {
  interface ProvidedContext {
    /** Set by vitest.e2e.config.ts's shared projects, whose files run one after another in a process. */
    sharedServer?: boolean;
  }
}

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

/**
 * The server and Chromium a worker process of a shared project keeps for its files. Module state,
 * not a fixture's value: Vitest keeps a worker-scoped value per `test.extend` chain, and files
 * that extend browserTest each have a chain of their own (a second server, not one shared).
 */
class WorkerServers {
  #env: string | undefined;
  #server: Promise<TestServer> | undefined;
  #chromium: Promise<Browser> | undefined;

  server(env: ServerEnv): Promise<TestServer> {
    const wanted = JSON.stringify(env);
    if (this.#env !== undefined && this.#env !== wanted) {
      throw new Error(
        `A shared project's server runs with ${this.#env}; a file that asks for ${wanted} needs a server of its own (vitest.e2e.config.ts).`,
      );
    }
    this.#env = wanted;
    this.#server ??= startTestServer(env);
    return this.#server;
  }

  chromium(): Promise<Browser> {
    this.#chromium ??= launchChromium();
    return this.#chromium;
  }

  /** Chromium first: an idle keep-alive socket of its holds a server's close() for minutes. */
  async close() {
    const [chromium, server] = [this.#chromium, this.#server];
    this.#chromium = this.#server = this.#env = undefined;
    await (await chromium)?.close();
    await (await server)?.close();
  }
}

const workerServers = new WorkerServers();

export const serverTest = base
  .extend("serverEnv", { scope: "file" }, {} as ServerEnv)
  // Every chain's worker value is this one object; the first of its cleanups at the end of the
  // process closes what it holds, the others find it empty.
  .extend("workerServers", { scope: "worker" }, async ({}, { onCleanup }) => {
    onCleanup(() => workerServers.close());
    return workerServers;
  })
  .extend("server", { scope: "file" }, async ({ serverEnv, workerServers }, { onCleanup }) => {
    if (inject("sharedServer")) return workerServers.server(serverEnv);
    const server = await startTestServer(serverEnv);
    onCleanup(() => server.close());
    return server;
  });

export const browserTest = serverTest
  // On the server, so it is launched after the server and the fakes it talks to and closed before
  // them: an idle keep-alive socket of Chromium's holds a server's close() for minutes.
  .extend("browser", { scope: "file" }, async ({ server, workerServers }, { onCleanup }) => {
    const browser: TestBrowser = inject("sharedServer")
      ? await browserContext(await workerServers.chromium(), { baseURL: server.url })
      : await launchBrowser({ baseURL: server.url });
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
    // A fake model is a setting of the server's: a shared project's server has none.
    if (inject("sharedServer"))
      throw new Error("A Game Master test needs a server of its own: list it outside vitest.e2e.config.ts's shared projects.");
    const server = await startServerWithModel(model, { AI_PROVIDER: modelProvider, ...serverEnv });
    onCleanup(() => server.close());
    return server;
  });
