import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { readOrCreateLocalSecret } from "#app/env.server.ts";

/**
 * PGlite lets one process open its data directory. While the server runs on it, the support
 * commands (admin:grant, credits:grant) and db:backup ask the server over loopback instead:
 * DATA_DIR/server.json says where it listens and DATA_DIR/control-token holds the shared secret.
 */
const CONTROL_FILE = "server.json";
const TOKEN_FILE = "control-token";

export interface ControlFile {
  url: string;
  pid: number;
}

export function registerControlFile(dataDir: string, url: string) {
  readOrCreateLocalSecret(dataDir, TOKEN_FILE);
  const control: ControlFile = { url, pid: process.pid };
  writeFileSync(path.join(dataDir, CONTROL_FILE), JSON.stringify(control), { mode: 0o600 });
}

export function removeControlFile(dataDir: string) {
  rmSync(path.join(dataDir, CONTROL_FILE), { force: true });
}

export function readControlFile(dataDir: string): ControlFile | undefined {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, CONTROL_FILE), "utf8")) as ControlFile;
  } catch {
    return undefined;
  }
}

export function controlToken(dataDir: string) {
  return readOrCreateLocalSecret(dataDir, TOKEN_FILE);
}
