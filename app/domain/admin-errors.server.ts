/**
 * What the admin domain modules refuse, as typed errors; the admin API maps them to HTTP in one
 * place (admin-api.server.ts).
 */

/** The item to change does not exist (any more): deleted by another admin, or a stale id. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
}

/** The input names something that cannot be used, e.g. content for a game that does not exist. */
export class InvalidReferenceError extends Error {
  override name = "InvalidReferenceError";
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/** Another game or guide already owns the slug (slugs are unique, deleted games included). */
export class SlugTakenError extends Error {
  override name = "SlugTakenError";
  constructor(kind: "game" | "guide", slug: string, owner: { title: string; deleted?: boolean }) {
    const ownerName = owner.deleted ? `the deleted ${kind} "${owner.title}"` : `"${owner.title}"`;
    super(`The slug "${slug}" is already used by ${ownerName}. Choose another slug.`);
  }
}

/** PostgreSQL's unique_violation, from either driver, wrapped by Drizzle or not. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as Error & { code?: unknown }).code === "23505") return true;
  }
  return false;
}
