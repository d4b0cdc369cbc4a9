import { z } from "zod";
import { NotFoundError } from "../domain/errors.server.ts";
import { MAX_PLAYER_MESSAGE_LENGTH } from "../lib/constants.ts";
import { CHECK_DIFFICULTIES, type CheckDifficulty } from "../lib/stat-checks.ts";
import { STORY_REFUSALS } from "../lib/play-texts.ts";

/** What the play screen's requests carry, validated alike wherever they arrive. */

export const playerMessage = z
  .string({ error: "Write a message for the Game Master." })
  .trim()
  .min(1, "Write a message for the Game Master: an empty message is not sent.")
  .max(MAX_PLAYER_MESSAGE_LENGTH, `Your message is too long: keep it under ${MAX_PLAYER_MESSAGE_LENGTH.toLocaleString("en-US")} characters.`);

/** A message sent as a Check: the stat the player tests, and how hard (docs/decisions/061). */
export const checkRequest = z.object(
  {
    stat: z.string({ error: "Choose the stat to check (check.stat)." }).trim().min(1, "Choose the stat to check (check.stat).").max(100),
    difficulty: z.enum(CHECK_DIFFICULTIES.map(({ difficulty }) => difficulty) as [CheckDifficulty, ...CheckDifficulty[]], {
      error: "Choose how hard the check is: easy, normal or hard (check.difficulty).",
    }),
  },
  { error: "A check names a stat and a difficulty (check)." },
);

/** The latest exchange as the page saw it: a control acts on it only if it still is the latest. */
export const seenExchange = z.number({ error: "Say which exchange this is about (exchange)." }).int().min(1).max(10_000_000);

/** The story a request's address names; a malformed id names no story. */
export function storyIdOf(params: Record<string, string | undefined>): string {
  const id = z.uuid().safeParse(params.storyId);
  if (!id.success) throw new NotFoundError(STORY_REFUSALS.missing);
  return id.data;
}

const position = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

/** The story, reply and version an address names (…/replies/{replyId}/versions/{version}/…); anything else names nothing (404). */
export function replyVersionOf(params: Record<string, string | undefined>, missing: string) {
  const storyId = storyIdOf(params);
  const replyId = position.safeParse(params.replyId);
  const version = position.safeParse(params.version);
  if (!replyId.success || !version.success) throw new NotFoundError(missing);
  return { storyId, replyId: replyId.data, version: version.data };
}
