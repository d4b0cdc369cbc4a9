import { describe, expect, it } from "vitest";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import { controlsFor, priceOf, streamingKey } from "./story-selectors.ts";
import { initialStoryState } from "./story-state.ts";
import { announcement, contents, exchange, exchangesFrom, reduce, sending, STORY_ID, storyView } from "./story-test-data.ts";
import { MAX_WINDOW_EXCHANGES } from "./story-window.ts";

/** The stored story on screen, other tabs' changes and replies, and the window the reader scrolls. */

describe("the story as stored, and other tabs", () => {
  it("a story-changed event for another story is ignored; a newer one for this story marks it behind", () => {
    const start = initialStoryState(storyView(2));
    expect(reduce(start, { type: "storyChanged", storyId: "another", revision: 9 })).toBe(start);
    expect(reduce(start, { type: "storyChanged", storyId: STORY_ID, revision: 2 })).toBe(start);
    const behind = reduce(start, { type: "storyChanged", storyId: STORY_ID, revision: 3 });
    expect(behind.behind).toBe(3);
    expect(reduce(behind, { type: "storyLoaded", view: storyView(3) }).behind).toBeNull();
  });

  it("a screen whose story has not begun takes the story begun in its game, shown once loaded, and prices its next turn there", () => {
    const empty = initialStoryState(null);
    const adopted = reduce(empty, { type: "storyChanged", storyId: STORY_ID, revision: 1 });
    expect(adopted).toMatchObject({ storyId: STORY_ID, behind: 1, exchanges: 0 });
    const shown = reduce(adopted, { type: "storyLoaded", view: storyView(1) });
    expect(shown).toMatchObject({ storyId: STORY_ID, exchanges: 1, behind: null });
    expect(priceOf(shown, "send")).toBe(1);
    // Its own opening in flight, the screen waits for that instead.
    const { sent } = sending(0);
    expect(reduce(sent, { type: "storyChanged", storyId: STORY_ID, revision: 1 })).toBe(sent);
  });

  it("a story-changed event during this tab's own call is ignored (the call shows the stored story when it ends)", () => {
    const { sent } = sending(2);
    expect(reduce(sent, { type: "storyChanged", storyId: STORY_ID, revision: 3 })).toBe(sent);
  });

  it("an answer older than the story on screen is ignored, except to end this tab's call", () => {
    const start = initialStoryState(storyView(4));
    expect(reduce(start, { type: "storyLoaded", view: storyView(3) })).toBe(start);
    const { sent } = sending(4);
    expect(reduce(sent, { type: "storyLoaded", view: storyView(3) }).exchanges).toBe(3);
  });

  it("the stored story replaces the optimistic turn, after the older pages on screen and before this screen's notes", () => {
    const { sent, callId } = sending(2);
    const failed = reduce(sent, { type: "token", callId, text: "Half" }, { type: "replyEnded", callId, how: "error" });
    const shown = reduce(failed, { type: "storyLoaded", view: storyView(3, { messages: exchangesFrom(2, 3) }) });
    expect(contents(shown)).toEqual(["Move 1.", "Reply 1.", "Move 2.", "Reply 2.", "Move 3.", "Reply 3.", PLAY_TEXTS.errorReply]);
  });

  it("a reply written in another tab is followed here from what it had", () => {
    const view = storyView(3, { busy: true, messages: [...exchange(2), ...exchange(3, "", { status: "streaming" })] });
    const start = initialStoryState(view);
    const following = reduce(
      start,
      { type: "replyAttached", turn: announcement({ replyId: 6, replySoFar: "Before. " }) },
      { type: "attachedToken", text: "After." },
    );
    expect(streamingKey(following)).toBe("6");
    expect(following.messages.at(-1)?.content).toBe("Before. After.");
    expect(controlsFor(following, following.messages.at(-1)!)).toBeNull();
    const detached = reduce(following, { type: "replyDetached" });
    expect(reduce(detached, { type: "attachedToken", text: "Late." })).toBe(detached);
  });

  it("a reply elsewhere is not followed while this tab writes its own", () => {
    const { sent } = sending(2);
    expect(reduce(sent, { type: "replyAttached", turn: announcement() })).toBe(sent);
  });
});

describe("the window on screen", () => {
  const long = () => initialStoryState(storyView(500));

  it("loads older turns above, and nothing before the first", () => {
    const requested = reduce(long(), { type: "pageRequested", direction: "older" });
    expect(requested.loadingPage).toBe("older");
    expect(reduce(requested, { type: "pageRequested", direction: "newer" })).toBe(requested);
    const loaded = reduce(requested, { type: "pageLoaded", direction: "older", generation: 0, exchanges: 500, messages: exchangesFrom(459, 488) });
    expect(loaded.messages[0]?.exchange).toBe(459);
    expect(loaded).toMatchObject({ loadingPage: null, atLatest: true });
    const short = initialStoryState(storyView(3));
    expect(reduce(short, { type: "pageRequested", direction: "older" })).toBe(short);
  });

  it("keeps at most MAX_WINDOW_EXCHANGES on screen, letting the newest go (and leaving the latest)", () => {
    let state = long();
    for (let first = 459; first > 300; first -= 30) {
      state = reduce(
        state,
        { type: "pageRequested", direction: "older" },
        { type: "pageLoaded", direction: "older", generation: 0, exchanges: 500, messages: exchangesFrom(first, first + 29) },
      );
    }
    const shown = new Set(state.messages.map((message) => message.exchange));
    expect(shown.size).toBeLessThanOrEqual(MAX_WINDOW_EXCHANGES);
    expect(state.atLatest).toBe(false);
    expect(shown.has(500)).toBe(false);
  });

  it("drops a page asked for before the window was replaced", () => {
    const requested = reduce(long(), { type: "pageRequested", direction: "older" }, { type: "jumpRequested" });
    const loaded = reduce(requested, { type: "pageLoaded", direction: "older", generation: 0, exchanges: 500, messages: exchangesFrom(459, 488) });
    expect(loaded.messages).toBe(requested.messages);
    expect(loaded.loadingPage).toBeNull();
  });

  it("jumps to a match, highlighted, then reads on to the newest turn", () => {
    const asked = reduce(long(), { type: "jumpRequested" });
    const jumped = reduce(asked, {
      type: "jumped",
      generation: asked.windowGeneration,
      exchanges: 500,
      messages: exchangesFrom(1, 30),
      match: { exchange: 1, role: "user" },
    });
    expect(jumped).toMatchObject({ highlighted: "1-user", atLatest: false });
    expect(jumped.messages).toHaveLength(60);
    const newer = reduce(
      jumped,
      { type: "pageRequested", direction: "newer" },
      { type: "pageLoaded", direction: "newer", generation: asked.windowGeneration, exchanges: 500, messages: exchangesFrom(471, 500) },
    );
    expect(newer.atLatest).toBe(true);
  });

  it("back to the latest empties a window far back until the stored story comes; at the latest it only follows again", () => {
    const jumped = reduce(
      long(),
      { type: "jumpRequested" },
      { type: "jumped", generation: 1, exchanges: 500, messages: exchangesFrom(1, 30), match: { exchange: 1, role: "user" } },
    );
    const back = reduce(jumped, { type: "latestRequested" });
    expect(back).toMatchObject({ atLatest: true, messages: [], highlighted: null, follows: jumped.follows + 1 });
    expect(reduce(back, { type: "storyLoaded", view: storyView(500) }).messages.at(-1)?.exchange).toBe(500);
    const start = long();
    const latest = reduce(start, { type: "latestRequested" });
    expect(latest).toMatchObject({ messages: start.messages, windowGeneration: 0, follows: 1 });
  });

  it("a reader far back keeps their place when the stored story changes", () => {
    const jumped = reduce(
      long(),
      { type: "jumpRequested" },
      { type: "jumped", generation: 1, exchanges: 500, messages: exchangesFrom(1, 30), match: { exchange: 1, role: "user" } },
    );
    const changed = reduce(jumped, { type: "storyLoaded", view: storyView(501, { revision: 600 }) });
    expect(changed.messages).toBe(jumped.messages);
    expect(changed.exchanges).toBe(501);
  });
});
