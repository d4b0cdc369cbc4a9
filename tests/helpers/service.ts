import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, chownSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort } from "./server.ts";

/**
 * The parts an operator runs around the site, as real programs started by a test: Debian's nginx
 * with the deployment's own configuration (deploy/nginx.conf), and a private PostgreSQL server
 * that a test may stop and start (the machine's shared one is never touched). Each runs as an
 * unprivileged child process with its files in a temporary directory; as root (CI), it runs as an
 * unprivileged user (PostgreSQL refuses root).
 */

const PROJECT = path.resolve(import.meta.dirname, "../..");
const NGINX_CONF = path.join(PROJECT, "deploy", "nginx.conf");

interface Account {
  uid: number;
  gid: number;
}

function accountOf(name: string): Account {
  return { uid: Number(execFileSync("id", ["-u", name]).toString()), gid: Number(execFileSync("id", ["-g", name]).toString()) };
}

/** The command to run `command` as `user` when this process is root; as it is otherwise. */
function unprivileged(user: string, command: string, args: string[]): [string, string[], Account | undefined] {
  if (process.getuid?.() !== 0) return [command, args, undefined];
  const account = accountOf(user);
  return ["setpriv", [`--reuid=${account.uid}`, `--regid=${account.gid}`, "--clear-groups", "--", command, ...args], account];
}

function run(command: string, args: string[]) {
  return new Promise<string>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("error", reject);
    child.once("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`${command} ${args.join(" ")} exited with ${code}:\n${output}`)),
    );
  });
}

/** Replaces the lines between `# <name>: begin` and `# <name>: end` of an nginx configuration. */
function substitute(conf: string, name: string, lines: string[]) {
  const pattern = new RegExp(`(# ${name}: begin\\n)[\\s\\S]*?(\\n\\s*# ${name}: end)`);
  if (!pattern.test(conf)) throw new Error(`deploy/nginx.conf has no "# ${name}: begin/end" block`);
  return conf.replace(pattern, (_match, begin: string, end: string) => `${begin}${lines.join("\n")}${end}`);
}

export interface Nginx {
  url: string;
  /** How long nginx leaves out an instance it saw failing (the servers' fail_timeout). */
  failTimeoutMs: number;
  /** The access log so far (one line per request, with the upstream that answered). */
  accessLog(): string;
  errorLog(): string;
  stop(): Promise<void>;
}

/** deploy/nginx.conf with the upstream servers and the listen address substituted, served by Debian's nginx. */
export async function startNginx(upstreamPorts: number[]): Promise<Nginx> {
  if (!existsSync("/usr/sbin/nginx")) throw new Error("This test needs Debian's nginx: apt-get install -y nginx (.ci/run installs it).");
  const prefix = mkdtempSync(path.join(tmpdir(), "pae-nginx-"));
  const port = await freePort();
  const original = readFileSync(NGINX_CONF, "utf8");
  // The servers keep the parameters compose's have (max_fails, fail_timeout), but for `resolve`:
  // they are addresses, not names in Docker's DNS (and Debian's nginx predates the parameter).
  const parameters = (/^\s*server \S+ (.*);$/m.exec(original)?.[1] ?? "").replace(/\s*\bresolve\b/, "");
  let conf = substitute(
    original,
    "upstream servers",
    upstreamPorts.map((upstream) => `    server 127.0.0.1:${upstream} ${parameters};`),
  );
  conf = substitute(conf, "listen", [`    listen 127.0.0.1:${port};`]);
  writeFileSync(path.join(prefix, "nginx.conf"), conf);
  // The access log goes to nginx's standard output (as in a container): here a file it may reopen.
  const accessLog = path.join(prefix, "access.log");
  const errorLog = path.join(prefix, "error.log");
  writeFileSync(accessLog, "");
  writeFileSync(errorLog, "");
  chmodSync(accessLog, 0o666);
  chmodSync(errorLog, 0o666);
  chmodSync(prefix, 0o777);
  const nginxArgs = [
    "-p",
    prefix,
    "-c",
    path.join(prefix, "nginx.conf"),
    "-e",
    errorLog,
    "-g",
    `daemon off; pid ${path.join(prefix, "nginx.pid")};`,
  ];
  const [command, args] = unprivileged("nobody", "/usr/sbin/nginx", nginxArgs);
  const out = openSync(accessLog, "a");
  const child = spawn(command, args, { stdio: ["ignore", out, "pipe"] });
  closeSync(out);
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}${readFileSync(errorLog, "utf8")}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not start: ${stderr}${readFileSync(errorLog, "utf8")}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  return {
    url,
    failTimeoutMs: Number(/fail_timeout=(\d+)s/.exec(parameters)?.[1] ?? 10) * 1000,
    accessLog: () => readFileSync(accessLog, "utf8"),
    errorLog: () => readFileSync(errorLog, "utf8"),
    async stop() {
      // SIGQUIT: nginx's graceful stop.
      child.kill("SIGQUIT");
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}

export interface PrivatePostgres {
  /** postgres:// URL of its `postgres` database (trust authentication, loopback only). */
  adminUrl: string;
  /** URL of a database on this server. */
  urlOf(database: string): string;
  /** Stops the server (fast shutdown: connections are ended, as in a restart). */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  destroy(): Promise<void>;
}

/** Debian's PostgreSQL binaries (initdb, pg_ctl), the newest installed. */
function postgresBinaries(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((version) => existsSync(path.join(root, version, "bin", "initdb"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest)
    throw new Error("This test needs PostgreSQL's server binaries in /usr/lib/postgresql/<version>/bin (apt-get install -y postgresql).");
  return path.join(root, newest, "bin");
}

/** A PostgreSQL server of this test's own, in a temporary directory on a free port. */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  const directory = mkdtempSync(path.join(tmpdir(), "pae-postgres-"));
  const data = path.join(directory, "data");
  const port = await freePort();
  const [, , account] = unprivileged("postgres", "true", []);
  if (account) chownSync(directory, account.uid, account.gid);
  const as = (command: string, args: string[]) => {
    const [runCommand, runArgs] = unprivileged("postgres", path.join(bin, command), args);
    return run(runCommand, runArgs);
  };
  await as("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const start = () =>
    as("pg_ctl", ["-D", data, "-o", options, "-l", path.join(directory, "server.log"), "-w", "-t", "30", "start"]).then(() => {});
  const stop = (mode: "fast" | "immediate") => as("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"]).then(() => {});
  await start();
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    adminUrl: urlOf("postgres"),
    urlOf,
    stop: () => stop("fast"),
    start,
    async destroy() {
      await stop("immediate").catch(() => {});
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The process is still the same one (never restarted): it answers signal 0. */
export function isRunning(child: ChildProcess) {
  return child.exitCode === null && child.signalCode === null;
}
