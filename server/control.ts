import { timingSafeEqual } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import express, { type Router } from "express";
import type { DatabaseConnection } from "#app/db/client.server.ts";
import { CommandError, runSupportCommand } from "#app/domain/support-commands.server.ts";
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

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/**
 * POST /internal/cli { command, args } and GET /internal/backup (the database as PGlite's
 * tarball): loopback only, with the token from DATA_DIR.
 */
export function controlRouter(dataDir: string, connection: Extract<DatabaseConnection, { driver: "pglite" }>): Router {
  const router = express.Router();
  const expected = Buffer.from(`Bearer ${controlToken(dataDir)}`);
  router.use("/internal", (request, response, next) => {
    const given = Buffer.from(request.headers.authorization ?? "");
    const trusted = LOOPBACK.has(request.socket.remoteAddress ?? "") && given.length === expected.length && timingSafeEqual(given, expected);
    if (trusted) next();
    else response.status(403).json({ error: "Forbidden" });
  });
  router.get("/internal/backup", async (_request, response) => {
    const tarball = await connection.dumpDataDir();
    response.setHeader("Content-Type", "application/gzip");
    response.setHeader("Content-Length", tarball.size);
    await pipeline(Readable.from(tarball.stream()), response);
  });
  router.post("/internal/cli", express.json({ limit: "16kb" }), async (request, response) => {
    const { command, args } = request.body as { command?: unknown; args?: unknown };
    if (typeof command !== "string" || !Array.isArray(args) || !args.every((arg) => typeof arg === "string")) {
      response.status(400).json({ error: "Expected { command: string, args: string[] }." });
      return;
    }
    try {
      response.json({ message: await runSupportCommand(command, args) });
    } catch (error) {
      if (error instanceof CommandError) {
        response.status(422).json({ error: error.message });
        return;
      }
      request.log.error({ err: error }, "support command failed");
      response.status(500).json({ error: "The command failed; see the server log." });
    }
  });
  return router;
}
