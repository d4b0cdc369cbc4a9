/**
 * The process entry: `npm start` runs the built app (`npm run demo` with the test checkout), `npm run
 * dev` compiles on the fly with Vite.
 * Everything else lives in server/app.ts, which Vite bundles together with the routes.
 */
import { enableCompileCache } from "node:module";
import type { RunningServer, StartOptions } from "./app.ts";

type StartServer = (options?: StartOptions) => Promise<RunningServer>;

// glibc gives a thread that finds the malloc arenas busy an arena of its own, and seldom returns
// what it held. Pages compressed on libuv's threads left about 30 MiB there at rest; two arenas
// hold the same load (docs/decisions/040). glibc reads the limit only as a process starts, so
// the process starts again in place with it: same PID, flags and arguments. A limit the operator
// set is kept.
if (process.platform === "linux" && process.env.MALLOC_ARENA_MAX === undefined && process.execve) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, MALLOC_ARENA_MAX: "2" });
}

// The built app is a few megabytes of JavaScript and its packages: V8's code for them, kept on disk
// (NODE_COMPILE_CACHE, else the system's temporary folder), spares each start of an instance most of
// its compiling, about a quarter of its CPU to ready. Where the folder cannot be written the app
// starts as before.
enableCompileCache();

const development = process.argv.includes("--development");
// Set before React loads: it picks its production build from NODE_ENV.
process.env.NODE_ENV ??= development ? "development" : "production";
// `npm run demo` asks for the test checkout by name: a production start never takes it unasked
// (docs/decisions/019).
if (process.argv.includes("--test-checkout")) process.env.PAYMENTS_PROVIDER ??= "test";

async function loadStartServer(): Promise<{ startServer: StartServer; options: StartOptions }> {
  if (!development) {
    const bundle = (await import(new URL("../build/server/index.js", import.meta.url).href)) as { startServer: StartServer };
    return { startServer: bundle.startServer, options: {} };
  }
  const vite = await import("vite");
  const viteDevServer = await vite.createServer({ server: { middlewareMode: true } });
  const source = (await viteDevServer.ssrLoadModule("./server/app.ts")) as { startServer: StartServer };
  return { startServer: source.startServer, options: { viteDevServer } };
}

try {
  const { startServer, options } = await loadStartServer();
  const server = await startServer(options);
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      server
        .close()
        .then(() => options.viteDevServer?.close())
        .then(
          () => process.exit(0),
          () => process.exit(1),
        );
    });
  }
} catch (error) {
  // A configuration mistake is one readable line, not a stack trace.
  if (error instanceof Error && error.name === "ConfigurationError") {
    console.error(error.message);
  } else if (!development && error instanceof Error && error.message.includes("build/server/index.js")) {
    console.error("The app is not built yet: run `npm run build` first (or `npm run dev`).");
  } else {
    console.error(error);
  }
  process.exit(1);
}
