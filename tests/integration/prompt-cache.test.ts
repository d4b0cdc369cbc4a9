import { describe, expect } from "vitest";
import { promptCacheKey } from "#app/domain/game-master/reply-stream.server.ts";
import type { TrackedStat } from "#app/lib/tracked-stats.ts";
import { signUp } from "#tests/helpers/accounts.ts";
import { createTestGame, postChat, readTurn } from "#tests/helpers/game-chat.ts";
import { gameMasterTest } from "#tests/helpers/fixtures.ts";
import { beginStory } from "#tests/helpers/stories.ts";
import type { RecordedRequest } from "#tests/fakes/streaming-model.ts";

/**
 * Issue 34, a context the provider can cache (docs/decisions/055), against a local
 * OpenAI-compatible server that takes prompt_cache_key (AI_PROMPT_CACHE_KEY on): each turn's
 * request repeats the previous one up to its new message, even as a tracked stat changes every
 * turn, and carries the story's own cache key.
 */

const test = gameMasterTest;
test.override("serverEnv", { AI_MODEL: "fake-storyteller-7b", AI_PROMPT_CACHE_KEY: "true" });

const STATE_GAME = "harbor-cached";
const STATS: TrackedStat[] = [{ name: "Favour", kind: "number", min: 0, max: 100, start: 55 }];

interface ChatMessage {
  role: string;
  content: string;
}

const messagesOf = (request: RecordedRequest) => request.body.messages as ChatMessage[];

describe("a story's requests to an OpenAI-compatible model", () => {
  test("repeat the previous turn's request up to its new message, with the changing state only in the new one", async ({ server, model }) => {
    await createTestGame(server, { slug: STATE_GAME, trackedStats: STATS });
    const player = await signUp(server);
    await beginStory(server, player, STATE_GAME);
    const requests: RecordedRequest[] = [];
    for (const [move, favour] of [
      ["I walk the quay.", 60],
      ["I ask the harbourmaster for work.", 70],
      ["I count the ships.", 80],
    ] as const) {
      model.script(() => ({ tokens: [`You do it. `, `<state>{"Favour": ${favour}}</state>`] }));
      const turn = await readTurn(await postChat(server, player, { message: move, game_slug: STATE_GAME }));
      expect(turn.done).toBe(true);
      requests.push(model.requests.at(-1)!);
    }
    for (const [index, request] of requests.entries()) {
      const messages = messagesOf(request);
      expect(messages[0]?.role).toBe("system");
      expect(
        messages
          .filter((message) => message.role === "system")
          .map((message) => message.content)
          .join(),
      ).not.toMatch(/tracked_state|Now: /);
      // The state before this reply: 55 to begin with, then what the previous reply set.
      expect(messages.at(-1)?.content).toContain(`- Favour: a whole number from 0 to 100. Now: ${[55, 60, 70][index]}`);
      const previous = requests[index - 1];
      if (!previous) continue;
      const repeated = messagesOf(previous).slice(0, -1);
      expect(messages.slice(0, repeated.length)).toEqual(repeated);
      expect(messages.length).toBe(repeated.length + 3);
    }
    const keys = new Set(requests.map((request) => request.body.prompt_cache_key));
    expect([...keys]).toHaveLength(1);
    expect(String([...keys][0])).toMatch(/^[\w-]{32}$/);
  });

  test("carry a key of the story's own, a hash: another story's differs", async ({ server, model }) => {
    const keys: unknown[] = [];
    for (const slug of ["harbor-cached-a", "harbor-cached-b"]) {
      await createTestGame(server, { slug });
      const player = await signUp(server);
      await beginStory(server, player, slug);
      model.script(() => ({ tokens: ["The tide turns."] }));
      await readTurn(await postChat(server, player, { message: "I wait.", game_slug: slug }));
      keys.push(model.requests.at(-1)!.body.prompt_cache_key);
    }
    expect(keys[0]).not.toEqual(keys[1]);
    expect(keys[0]).toEqual(expect.stringMatching(/^[\w-]{32}$/));
    expect(promptCacheKey("a-story")).toBe(promptCacheKey("a-story"));
    expect(promptCacheKey("a-story")).not.toContain("a-story");
  });
});
