/**
 * What the operator's commands (scripts/cli.ts) print as is, with exit code 1. Here, apart from
 * the modules that throw them, so that the command line can tell them without loading those.
 */

/** A mistake of the operator's in a support command (unknown email, bad number). */
export class CommandError extends Error {
  override name = "CommandError";
}

/** A reason a backup or a restore cannot go on that the operator can act on. */
export class BackupError extends Error {
  override name = "BackupError";
}
