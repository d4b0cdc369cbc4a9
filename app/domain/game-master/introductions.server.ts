/**
 * A player's line that brings someone into the story ("I appoint a young scribe named Ouyang
 * Min…"): the storyteller answers later questions about them from it, and the offline summary keeps
 * it when older detail gives way (story-summary.server.ts), so both read it the same way.
 */

/** "…a young scribe named Ouyang Min": a line that brings someone into the story is what a later question about them is after. */
export const INTRODUCES = /\b(?:named|called|name (?:it|him|her))\s+\p{Lu}/u;

/** Whether the player's line brings someone into the story ("I appoint a young scribe named Ouyang Min…"). */
export function introducesSomeone(line: string) {
  return INTRODUCES.test(line) && /^(?:I|My)\b/.test(line);
}
