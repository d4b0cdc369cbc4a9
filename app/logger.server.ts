import { pino, type Logger } from "pino";
import { env } from "./env.server.ts";

export type { Logger };

let instance: Logger | undefined;

/** The process logger (JSON lines on stdout). Request handlers use its per-request child. */
export function logger(): Logger {
  instance ??= pino({
    level: env().LOG_LEVEL,
    redact: { paths: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'], remove: true },
  });
  return instance;
}
