import { describe, expect, it } from "vitest";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import type { StoryMessageView, StoryStateView, StoryView, TurnAnnouncement } from "#app/lib/story-view.ts";
import type { TrackedStat } from "#app/lib/tracked-stats.ts";
import { storyReducer } from "./story-reducer.ts";
import { controlsFor, isPending, latestReply, outOfCredits, priceOf, shownStoryState, storyMessages, streamingKey } from "./story-selectors.ts";
import { initialStoryState, type StoryAction, type StoryScreenState } from "./story-state.ts";
import { MAX_WINDOW_EXCHANGES } from "./story-window.ts";

/**
 * The play screen's transitions, each an action on plain data: what the player sees after every
 * event of a turn, a story control, another tab's change and the reader's scrolling.
 */

const STORY_ID = "7f1c1a52-8a6e-4a53-9d3a-0d1f4a1c2b3e";
const AT = "2026-03-01T10:00:00.000Z";
const GRACE: TrackedStat = { name: "Grace", kind: "number", min: 0, max: 100, start: 75 };

function exchange(position: number, reply = `Reply ${position}.`, extra: Partial<StoryMessageView> = {}): StoryMessageView[] {
  return [
    {
      id: position * 2 - 1,
      exchange: position,
      role: "user",
      content: `Move ${position}.`,
      status: "complete",
      version: 1,
      versions: 1,
      createdAt: AT,
    },
    {
      id: position * 2,
      exchange: position,
      role: "assistant",
      content: reply,
      status: "complete",
      version: 1,
      versions: 1,
      createdAt: AT,
      ...extra,
    },
  ];
}

function exchangesFrom(first: number, last: number) {
  return Array.from({ length: last - first + 1 }, (_, index) => exchange(first + index)).flat();
}

function stateAt(values: number): StoryStateView {
  return { stats: [GRACE], values: { Grace: values }, previous: { Grace: 75 } };
}

function storyView(exchanges: number, overrides: Partial<StoryView> = {}): StoryView {
  return {
    id: STORY_ID,
    revision: exchanges,
    exchanges,
    busy: false,
    messages: exchangesFrom(Math.max(1, exchanges - 11), exchanges),
    memory: { pinnedFacts: "", authorNote: "", summary: "" },
    state: null,
    ...overrides,
  };
}

function reduce(state: StoryScreenState, ...actions: StoryAction[]) {
  return actions.reduce(storyReducer, state);
}

function announcement(overrides: Partial<TurnAnnouncement> = {}): TurnAnnouncement {
  return { storyId: STORY_ID, kind: "turn", exchange: 1, messageId: 1, replyId: 2, version: 1, versions: 1, replySoFar: "", ...overrides };
}

/** A story of `exchanges` exchanges with a turn just sent from the composer. */
function sending(exchanges: number, text = "I open the letter.") {
  const state = reduce(initialStoryState(exchanges ? storyView(exchanges) : null), { type: "draftChanged", text });
  const sent = reduce(state, { type: "submitted", at: AT });
  if (!sent.call) throw new Error("the turn did not start");
  return { before: state, sent, callId: sent.call.id };
}

const contents = (state: StoryScreenState) => state.messages.map((message) => message.content);

describe("the composer", () => {
  it("takes a suggested choice and asks for the focus", () => {
    const state = reduce(initialStoryState(storyView(2)), { type: "choiceChosen", choice: "Seek out the Prince" });
    expect(state.draft).toBe("Seek out the Prince");
    expect(state.composerFocus).toBe(1);
  });

  it("Edit brings the latest message back in edit mode; Cancel edit empties it", () => {
    const editing = reduce(initialStoryState(storyView(3)), { type: "editStarted" });
    expect(editing).toMatchObject({ draft: "Move 3.", editing: true });
    expect(reduce(editing, { type: "editCancelled" })).toMatchObject({ draft: "", editing: false });
  });

  it("Edit is not possible with nothing to edit, or while a reply is written", () => {
    const empty = initialStoryState(null);
    expect(reduce(empty, { type: "editStarted" })).toBe(empty);
    const { sent } = sending(2);
    expect(reduce(sent, { type: "editStarted" })).toBe(sent);
  });
});

describe("a turn", () => {
  it("shows the message and a reply being written at once, and empties the composer", () => {
    const { sent, callId } = sending(2);
    expect(sent.draft).toBe("");
    expect(contents(sent).slice(-2)).toEqual(["I open the letter.", ""]);
    expect(sent.messages.at(-1)?.status).toBe("streaming");
    expect(isPending(sent)).toBe(true);
    expect(streamingKey(sent)).toBe(sent.messages.at(-1)?.key);
    expect(sent.call).toMatchObject({ id: callId, kind: "turn", exchange: 3, message: "I open the letter." });
    expect(sent.follows).toBe(1);
  });

  it("ignores an empty composer, and a second send while the first is written", () => {
    const blank = reduce(initialStoryState(storyView(2)), { type: "draftChanged", text: "   " });
    expect(reduce(blank, { type: "submitted", at: AT })).toBe(blank);
    const { sent } = sending(2);
    const typed = reduce(sent, { type: "draftChanged", text: "Another." });
    expect(reduce(typed, { type: "submitted", at: AT })).toBe(typed);
  });

  it("waits while a reply is written in another tab", () => {
    const busy = reduce(initialStoryState(storyView(2, { busy: true })), { type: "draftChanged", text: "Hello." });
    expect(isPending(busy)).toBe(true);
    expect(reduce(busy, { type: "submitted", at: AT })).toBe(busy);
  });

  it("sends the text of a suggested choice when its number is typed", () => {
    const view = storyView(1, { messages: exchange(1, "The court waits.\n\n1. Summon the eunuch\n2. **Walk** the walls") });
    const state = reduce(initialStoryState(view), { type: "draftChanged", text: "2" }, { type: "submitted", at: AT });
    expect(state.call?.message).toBe("Walk the walls");
  });

  it("fills the reply token by token, and takes the story's id from the announcement", () => {
    const { sent, callId } = sending(0);
    const state = reduce(
      sent,
      { type: "announced", callId, turn: announcement() },
      { type: "token", callId, text: "The hall " },
      { type: "token", callId, text: "falls silent." },
    );
    expect(state.storyId).toBe(STORY_ID);
    expect(state.messages.at(-1)?.content).toBe("The hall falls silent.");
  });

  it("ignores a token after [DONE], and tokens of another call", () => {
    const { sent, callId } = sending(2);
    const done = reduce(sent, { type: "token", callId, text: "All done." }, { type: "replyEnded", callId, how: "done" });
    expect(reduce(done, { type: "token", callId, text: " More?" })).toBe(done);
    expect(reduce(sent, { type: "token", callId: callId + 1, text: "Stray." })).toBe(sent);
  });

  it("ends: the reply complete, nothing streaming, and the screen free once settled, with the composer's focus back", () => {
    const { sent, callId } = sending(2);
    const done = reduce(sent, { type: "token", callId, text: "The End." }, { type: "replyEnded", callId, how: "done" });
    expect(done.messages.at(-1)).toMatchObject({ content: "The End.", status: "complete" });
    expect(streamingKey(done)).toBeNull();
    expect(isPending(done)).toBe(true);
    const settled = reduce(done, { type: "settled", callId });
    expect(isPending(settled)).toBe(false);
    expect(settled.composerFocus).toBe(sent.composerFocus + 1);
  });

  it("a reply with no text says docs/spec.md §8's apology, and the turn is not part of the story", () => {
    const { sent, callId } = sending(2);
    const state = reduce(sent, { type: "replyEnded", callId, how: "done" });
    expect(state.messages.at(-1)).toMatchObject({ content: PLAY_TEXTS.emptyReply, local: true, status: "complete" });
    expect(storyMessages(state).map((message) => message.content)).not.toContain("I open the letter.");
    expect(contents(state)).toContain("I open the letter.");
  });

  it("an error after some text keeps what arrived and adds the apology", () => {
    const { sent, callId } = sending(2);
    const state = reduce(sent, { type: "token", callId, text: "Half a reply" }, { type: "replyEnded", callId, how: "error" });
    expect(contents(state).slice(-3)).toEqual(["I open the letter.", "Half a reply", PLAY_TEXTS.errorReply]);
    expect(storyMessages(state).at(-1)?.content).toBe("Half a reply");
  });

  it("an error before any text (or no answer at all) leaves the message outside the story, with the apology", () => {
    const { sent, callId } = sending(2);
    for (const ending of [
      { type: "replyEnded", callId, how: "error" },
      { type: "callFailed", callId },
    ] as const) {
      const state = reduce(sent, ending);
      expect(contents(state).slice(-2)).toEqual(["I open the letter.", PLAY_TEXTS.errorReply]);
      expect(state.messages.at(-2)?.local).toBe(true);
      expect(storyMessages(state)).toHaveLength(4);
    }
  });

  it("a cut connection keeps what arrived as it is until the stored story comes", () => {
    const { sent, callId } = sending(2);
    const state = reduce(sent, { type: "token", callId, text: "Some" }, { type: "replyEnded", callId, how: "cut" });
    expect(state.messages.at(-1)).toMatchObject({ content: "Some", status: "streaming" });
    expect(streamingKey(state)).toBeNull();
  });

  it("sending again drops the notes of the last failure", () => {
    const { sent, callId } = sending(2);
    const failed = reduce(sent, { type: "callFailed", callId }, { type: "settled", callId });
    const again = reduce(failed, { type: "draftChanged", text: "Once more." }, { type: "submitted", at: AT });
    expect(contents(again)).not.toContain(PLAY_TEXTS.errorReply);
    expect(contents(again)).not.toContain("I open the letter.");
  });
});

describe("a refused turn", () => {
  it("rolls back the optimistic messages and gives the text back to the composer", () => {
    const { before, sent, callId } = sending(2);
    const state = reduce(sent, { type: "refused", callId, code: "insufficient_credits" });
    expect(state.messages).toEqual(before.messages);
    expect(state.draft).toBe("I open the letter.");
    expect(state.freeOpeningAvailable).toBe(true);
  });

  it("keeps what the player typed meanwhile", () => {
    const { sent, callId } = sending(2);
    const state = reduce(sent, { type: "draftChanged", text: "Something else" }, { type: "refused", callId, code: "busy" });
    expect(state.draft).toBe("Something else");
  });

  it.each([
    "unauthenticated",
    "story_busy",
    "story_changed",
    "busy",
    "email_not_confirmed",
    "rate_limited",
    "invalid_input",
    "invalid_text",
  ] as const)("%s gives the text back", (code) => {
    const { before, sent, callId } = sending(2);
    const state = reduce(sent, { type: "refused", callId, code });
    expect(state.messages).toEqual(before.messages);
    expect(state.draft).toBe("I open the letter.");
  });

  it.each(["internal", "not_found", "forbidden", "conflict", "provider_unavailable", undefined] as const)(
    "%s is a failed send: the apology, and the message outside the story",
    (code) => {
      const { sent, callId } = sending(2);
      const state = reduce(sent, { type: "refused", callId, code });
      expect(state.messages.at(-1)?.content).toBe(PLAY_TEXTS.errorReply);
      expect(state.messages.at(-2)).toMatchObject({ content: "I open the letter.", local: true });
      expect(state.draft).toBe("");
    },
  );

  it("for want of credits on the opening: the free openings are used up, so the opening is priced", () => {
    const { before, sent, callId } = sending(0);
    expect(priceOf(before, "turn")).toBe(0);
    expect(outOfCredits(before, 0)).toBe(false);
    const state = reduce(sent, { type: "refused", callId, code: "insufficient_credits" });
    expect(state.freeOpeningAvailable).toBe(false);
    expect(priceOf(state, "turn")).toBe(1);
    expect(outOfCredits(state, 0)).toBe(true);
  });

  it("is ignored once the call has ended", () => {
    const { sent, callId } = sending(2);
    const done = reduce(sent, { type: "token", callId, text: "Done." }, { type: "replyEnded", callId, how: "done" });
    expect(reduce(done, { type: "refused", callId, code: "busy" })).toBe(done);
  });
});

describe("the story controls", () => {
  it("Retry empties the reply and writes a new version; its tokens fill it", () => {
    const state = reduce(initialStoryState(storyView(2)), { type: "controlled", kind: "retry" });
    expect(latestReply(state)).toMatchObject({ content: "", status: "streaming", version: 2, versions: 2 });
    expect(state.call).toMatchObject({ kind: "retry", exchange: 2 });
    const callId = state.call?.id ?? 0;
    const done = reduce(state, { type: "token", callId, text: "Another way." }, { type: "replyEnded", callId, how: "done" });
    expect(latestReply(done)).toMatchObject({ content: "Another way.", status: "complete" });
  });

  it("Continue writes after the reply's text", () => {
    const state = reduce(initialStoryState(storyView(2)), { type: "controlled", kind: "continue" });
    const callId = state.call?.id ?? 0;
    expect(reduce(state, { type: "token", callId, text: " And more." }).messages.at(-1)?.content).toBe("Reply 2. And more.");
  });

  it("Edit from the composer replaces the exchange; a refusal puts back the exchange and the composer in edit mode", () => {
    const start = initialStoryState(storyView(2));
    const editing = reduce(start, { type: "editStarted" }, { type: "draftChanged", text: "Move 2, better." });
    const sent = reduce(editing, { type: "submitted", at: AT });
    expect(sent.call).toMatchObject({ kind: "edit", message: "Move 2, better.", exchange: 2 });
    expect(contents(sent).slice(-2)).toEqual(["Move 2, better.", ""]);
    expect(sent).toMatchObject({ draft: "", editing: false });
    const refused = reduce(sent, { type: "refused", callId: sent.call?.id ?? 0, code: "story_changed" });
    expect(refused.messages).toEqual(start.messages);
    expect(refused).toMatchObject({ draft: "Move 2, better.", editing: true });
  });

  it("Send again sends a lost reply's message as it was", () => {
    const lost = storyView(2, { messages: [...exchange(1), ...exchange(2, "", { status: "interrupted" })] });
    const state = reduce(initialStoryState(lost), { type: "controlled", kind: "sendAgain" });
    expect(state.call).toMatchObject({ kind: "edit", message: "Move 2." });
  });

  it("a control that failed before any text puts the reply back", () => {
    const start = initialStoryState(storyView(2));
    const state = reduce(start, { type: "controlled", kind: "retry" });
    const callId = state.call?.id ?? 0;
    expect(reduce(state, { type: "replyEnded", callId, how: "error" }).messages).toEqual(start.messages);
    expect(reduce(state, { type: "callFailed", callId }).messages).toEqual(start.messages);
    expect(reduce(state, { type: "refused", callId, code: "internal" }).messages).toEqual(start.messages);
  });

  it("nothing to control without a story, nor while a reply is written", () => {
    const empty = initialStoryState(null);
    expect(reduce(empty, { type: "controlled", kind: "retry" })).toBe(empty);
    const { sent } = sending(2);
    expect(reduce(sent, { type: "controlled", kind: "continue" })).toBe(sent);
  });

  it("undo during a stream is impossible", () => {
    const { sent } = sending(2);
    expect(reduce(sent, { type: "changeRequested", kind: "undo" })).toBe(sent);
  });

  it("Undo waits for the stored story, which walks back an exchange and its state", () => {
    const start = initialStoryState(storyView(3, { state: stateAt(80) }));
    const undoing = reduce(start, { type: "changeRequested", kind: "undo" });
    expect(isPending(undoing)).toBe(true);
    expect(undoing.messages).toBe(start.messages);
    const shown = reduce(undoing, { type: "storyLoaded", view: storyView(2, { revision: 4, state: stateAt(77) }) });
    expect(shown.exchanges).toBe(2);
    expect(storyMessages(shown).at(-1)?.content).toBe("Reply 2.");
    expect(shown.storyState?.values.Grace).toBe(77);
    expect(isPending(reduce(shown, { type: "settled", callId: undoing.call?.id ?? 0 }))).toBe(false);
  });

  it("versions switch and the State panel follows the version's state", () => {
    const versions = (version: number, content: string) => [...exchange(1), ...exchange(2, content, { version, versions: 2 })];
    const start = initialStoryState(storyView(2, { messages: versions(2, "Second."), state: stateAt(80) }));
    const switching = reduce(start, { type: "changeRequested", kind: "version" });
    const shown = reduce(switching, {
      type: "storyLoaded",
      view: storyView(2, { revision: 3, messages: versions(1, "First."), state: stateAt(70) }),
    });
    expect(latestReply(shown)).toMatchObject({ content: "First.", version: 1, versions: 2 });
    expect(shownStoryState(shown, [GRACE])?.values.Grace).toBe(70);
  });
});

describe("the story as stored, and other tabs", () => {
  it("a story-changed event for another story is ignored; a newer one for this story marks it behind", () => {
    const start = initialStoryState(storyView(2));
    expect(reduce(start, { type: "storyChanged", storyId: "another", revision: 9 })).toBe(start);
    expect(reduce(start, { type: "storyChanged", storyId: STORY_ID, revision: 2 })).toBe(start);
    const behind = reduce(start, { type: "storyChanged", storyId: STORY_ID, revision: 3 });
    expect(behind.behind).toBe(3);
    expect(reduce(behind, { type: "storyLoaded", view: storyView(3) }).behind).toBeNull();
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

describe("prices and controls", () => {
  it("prices with turnCost: the opening free, Continue and later turns one credit", () => {
    const opening = initialStoryState(storyView(1));
    expect([priceOf(opening, "retry"), priceOf(opening, "edit"), priceOf(opening, "continue"), priceOf(opening, "turn")]).toEqual([0, 0, 1, 1]);
    expect(priceOf(initialStoryState(null), "turn")).toBe(0);
  });

  it("offers Edit under the latest message, versions and the paid controls under the latest reply, Send again under a lost one", () => {
    const state = initialStoryState(storyView(2, { messages: [...exchange(1), ...exchange(2, "Two.", { version: 2, versions: 3 })] }));
    const [oldMove, oldReply, move, reply] = state.messages;
    expect([controlsFor(state, oldMove!), controlsFor(state, oldReply!)]).toEqual([null, null]);
    expect(controlsFor(state, move!)).toEqual({ kind: "edit" });
    expect(controlsFor(state, reply!)).toEqual({ kind: "reply", version: 2, versions: 3 });
    const lost = initialStoryState(storyView(2, { messages: [...exchange(1), ...exchange(2, "", { status: "interrupted" })] }));
    expect(controlsFor(lost, lost.messages.at(-1)!)).toEqual({ kind: "lost", message: "Move 2." });
  });

  it("the State panel shows the game's starting values before the story has a state", () => {
    expect(shownStoryState(initialStoryState(null), [GRACE])).toEqual({ stats: [GRACE], values: { Grace: 75 }, previous: { Grace: 75 } });
    expect(shownStoryState(initialStoryState(null), [])).toBeNull();
  });
});

describe("the screen's own events", () => {
  it("Start Over clears the story back to the welcome", () => {
    const state = reduce(initialStoryState(storyView(3, { state: stateAt(80) })), { type: "restartStarted" }, { type: "cleared" });
    expect(state).toMatchObject({ messages: [], exchanges: 0, storyState: null, restarting: false });
  });

  it("memory saved, Save Chat and a new story keep their flags", () => {
    const memory = { pinnedFacts: "My name is Lin Yue.", authorNote: "", summary: "" };
    let state = reduce(initialStoryState(storyView(1)), { type: "memorySaved", memory }, { type: "saveStarted" }, { type: "newStoryRequested" });
    expect(state).toMatchObject({ memory, saving: true, beginningNewStory: true });
    state = reduce(state, { type: "saveFinished" }, { type: "newStoryFailed" }, { type: "restartStarted" }, { type: "restartFailed" });
    expect(state).toMatchObject({ saving: false, beginningNewStory: false, restarting: false });
  });

  it("is plain data all along", () => {
    const { sent, callId } = sending(2);
    const state = reduce(sent, { type: "token", callId, text: "Text." }, { type: "findToggled" }, { type: "replyEnded", callId, how: "done" });
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });
});
