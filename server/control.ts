import { timingSafeEqual } from "node:crypto";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import express, { type Router } from "express";
import type { DatabaseConnection } from "#app/db/client.server.ts";
import { parseSupportCall } from "#app/domain/support-calls.ts";
import { runSupportCall } from "#app/domain/support-commands.server.ts";
import { isLoopbackAddress } from "#app/lib/addresses.ts";
import { CommandError } from "#app/lib/operator-errors.ts";
import { controlToken } from "./control-file.ts";

/**
 * POST /internal/cli { command, args } and GET /internal/backup (the database as PGlite's
 * tarball): loopback only, with the token from DATA_DIR.
 */
export function controlRouter(dataDir: string, connection: Extract<DatabaseConnection, { driver: "pglite" }>): Router {
  const router = express.Router();
  const expected = Buffer.from(`Bearer ${controlToken(dataDir)}`);
  router.use("/internal", (request, response, next) => {
    const given = Buffer.from(request.headers.authorization ?? "");
    const trusted = isLoopbackAddress(request.socket.remoteAddress) && given.length === expected.length && timingSafeEqual(given, expected);
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
      response.json({ message: await runSupportCall(parseSupportCall(command, args)) });
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
