import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { killWithTheTestFile } from "./leftover-processes.ts";
import { freePort } from "./server.ts";

const PROJECT = path.resolve(import.meta.dirname, "../..");

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed. */
  output(): string;
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>;
}

/** The Node flags `npm start` runs the server with (its memory settings, docs/decisions/015). */
function startCommandFlags(): string[] {
  const { start } = (JSON.parse(readFileSync(path.join(PROJECT, "package.json"), "utf8")) as { scripts: { start: string } }).scripts;
  const match = /^node((?:\s+--\S+)*)\s+server\/main\.ts$/.exec(start.trim());
  if (!match) throw new Error(`package.json's start script is not "node [--flags] server/main.ts": ${start}`);
  return match[1]!.trim().split(/\s+/).filter(Boolean);
}

/**
 * Runs the built app as `npm start` does, as its own process, and waits until it answers /readyz.
 * `nodeFlags` come after the start command's own, to measure other settings; `args` go to the server.
 * `discardLogs` sends its standard output (the request log) where production's collector would
 * take it without keeping it here: benchmarks log at `info` as production does.
 */
export async function startServerProcess(
  env: Record<string, string | undefined>,
  nodeFlags: string[] = [],
  args: string[] = [],
  { discardLogs = false } = {},
): Promise<ServerProcess> {
  // A given PORT is kept: an instance restarted behind a load balancer comes back where it was.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...startCommandFlags(), ...nodeFlags, "server/main.ts", ...args], {
    cwd: PROJECT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      LOG_LEVEL: "info",
      // Production on PostgreSQL requires a shared secret (docs/decisions/004).
      AUTH_SECRET: "test-secret-shared-by-every-instance-0123456789",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", discardLogs ? "ignore" : "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  killWithTheTestFile(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  await untilReady(url, exited, () => output);

  return {
    url,
    child,
    output: () => output,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Runs a command of the project on its Node and returns its exit code and output. */
export function runProjectScript(args: string[], env: Record<string, string | undefined>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd: PROJECT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    killWithTheTestFile(child);
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

async function untilReady(url: string, exited: Promise<number | null>, output: () => string) {
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`server exited with ${exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
