import { pino, type Logger } from "pino";
import { env } from "./env.server.ts";

export type { Logger };

let instance: Logger | undefined;

/**
 * The process logger (JSON lines on stdout). Request handlers use its per-request child. Lines are
 * written asynchronously: while one write is on its way, the lines logged meanwhile wait and leave
 * together in the next, so a loaded server makes one system call for many requests' lines instead
 * of one each; a quiet one still writes each line at once. Whatever waits is flushed at exit.
 */
export function logger(): Logger {
  instance ??= pino(
    {
      level: env().LOG_LEVEL,
      redact: { paths: ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'], remove: true },
    },
    pino.destination({ dest: 1, sync: false }),
  );
  return instance;
}
