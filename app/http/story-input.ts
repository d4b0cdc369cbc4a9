import { z } from "zod";
import { NotFoundError } from "../domain/errors.server.ts";
import { MAX_PLAYER_MESSAGE_LENGTH } from "../lib/constants.ts";
import { STORY_REFUSALS } from "../lib/play-texts.ts";

/** What the play screen's requests carry, validated alike wherever they arrive. */

export const playerMessage = z
  .string({ error: "Write a message for the Game Master." })
  .trim()
  .min(1, "Write a message for the Game Master: an empty message is not sent.")
  .max(MAX_PLAYER_MESSAGE_LENGTH, `Your message is too long: keep it under ${MAX_PLAYER_MESSAGE_LENGTH.toLocaleString("en-US")} characters.`);

/** The latest exchange as the page saw it: a control acts on it only if it still is the latest. */
export const seenExchange = z.number({ error: "Say which exchange this is about (exchange)." }).int().min(1).max(10_000_000);

/** The story a request's address names; a malformed id names no story. */
export function storyIdOf(params: Record<string, string | undefined>): string {
  const id = z.uuid().safeParse(params.storyId);
  if (!id.success) throw new NotFoundError(STORY_REFUSALS.missing);
  return id.data;
}
