import { describe, expect, it } from "vitest";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import { continuedReply } from "#app/lib/story-choices.ts";
import {
  composedMessage,
  isPending,
  latestChoices,
  latestReply,
  outOfCredits,
  priceOf,
  shownStoryState,
  storyMessages,
  streamingKey,
} from "./story-selectors.ts";
import { initialStoryState } from "./story-state.ts";
import { announcement, AT, contents, exchange, GRACE, reduce, sending, stateAt, STORY_ID, storyView } from "./story-test-data.ts";

/**
 * The play screen's transitions, each an action on plain data: what the player sees after every
 * event of a turn, a refusal, a story control, and the screen's own events.
 */

describe("the composer", () => {
  it("a suggested choice is sent at once as a new turn, on the opening and on any later reply, leaving the composer as it was", () => {
    for (const exchanges of [0, 2]) {
      const typing = reduce(initialStoryState(exchanges ? storyView(exchanges) : null), { type: "draftChanged", text: "half a thought" });
      const sent = reduce(typing, { type: "submitted", choice: "Seek out the Prince", at: AT });
      expect(sent.call).toMatchObject({ kind: "send", exchange: exchanges + 1, message: "Seek out the Prince" });
      expect(contents(sent).slice(-2)).toEqual(["Seek out the Prince", ""]);
      expect(sent.draft).toBe("half a thought");
      // Answered: the composer does not take the focus (on a phone, its keyboard would cover the reply).
      expect(reduce(sent, { type: "settled", callId: sent.call?.id ?? 0 }).composerFocus).toBe(sent.composerFocus);
      // Refused (the Game Master busy): the composer keeps what the player was typing.
      expect(reduce(sent, { type: "refused", callId: sent.call?.id ?? 0, code: "busy" }).draft).toBe("half a thought");
    }
  });

  it("a choice is not sent while an Edit is open: the choices belong to the reply it replaces", () => {
    const editing = reduce(initialStoryState(storyView(2)), { type: "editStarted" });
    expect(reduce(editing, { type: "submitted", choice: "Seek out the Prince", at: AT })).toBe(editing);
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
    expect(sent.call).toMatchObject({ id: callId, kind: "send", exchange: 3, message: "I open the letter." });
    expect(sent.follows).toBe(1);
  });

  it("prices the next opening as the server charged this one", () => {
    const { sent, callId } = sending(0);
    const charged = reduce(sent, { type: "announced", callId, turn: announcement({ exchange: 1, charged: 1 }) });
    expect(charged.freeOpeningAvailable).toBe(false);
    const free = reduce(sent, { type: "announced", callId, turn: announcement({ exchange: 1, charged: 0 }) });
    expect(free.freeOpeningAvailable).toBe(true);
    // A later exchange's charge says nothing about the free openings.
    const later = sending(3);
    expect(
      reduce(later.sent, { type: "announced", callId: later.callId, turn: announcement({ exchange: 4, charged: 1 }) }).freeOpeningAvailable,
    ).toBe(true);
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

  it("sends the composer's text in its mode (Do, Say, Story), and gives back what was typed when refused", () => {
    const typed = (mode: "do" | "say" | "story", text: string) =>
      reduce(initialStoryState(storyView(1)), { type: "actionModeChosen", mode }, { type: "draftChanged", text });
    const done = reduce(typed("do", "I draw my sword"), { type: "submitted", at: AT });
    expect(done.call?.message).toBe("You draw your sword.");
    expect(contents(done).slice(-2)).toEqual(["You draw your sword.", ""]);
    expect(reduce(done, { type: "refused", callId: done.call?.id ?? 0, code: "busy" }).draft).toBe("I draw my sword");
    expect(reduce(typed("say", "who goes there"), { type: "submitted", at: AT }).call?.message).toBe('You say, "Who goes there."');
    expect(reduce(typed("story", " The bells ring out. "), { type: "submitted", at: AT }).call?.message).toBe("The bells ring out.");
    expect(composedMessage(typed("do", "I wait"))).toBe("You wait.");
  });

  it("sends the composer's message as a Check once, gives the Check back when refused, and never with an Edit", () => {
    const check = { stat: "Grace", difficulty: "hard" } as const;
    const chosen = reduce(initialStoryState(storyView(1)), { type: "checkChosen", check }, { type: "draftChanged", text: "I bow." });
    const sent = reduce(chosen, { type: "submitted", at: AT });
    expect(sent.call?.composed?.check).toEqual(check);
    expect(sent.check).toBeNull();
    expect(reduce(sent, { type: "refused", callId: sent.call?.id ?? 0, code: "busy" }).check).toEqual(check);
    const editing = reduce(initialStoryState(storyView(2)), { type: "checkChosen", check }, { type: "editStarted" });
    const edited = reduce(editing, { type: "submitted", at: AT });
    expect(edited.call).toMatchObject({ kind: "edit", composed: { check: null } });
    expect(edited.check).toEqual(check);
  });

  it("a typed choice and an Edit are sent as written, whatever the mode", () => {
    const view = storyView(1, { messages: exchange(1, "The court waits.\n\n1. Summon the eunuch\n2. I walk the walls") });
    const picked = reduce(initialStoryState(view), { type: "actionModeChosen", mode: "say" }, { type: "draftChanged", text: "2" });
    expect(composedMessage(picked)).toBe("I walk the walls");
    const editing = reduce(initialStoryState(storyView(2)), { type: "actionModeChosen", mode: "say" }, { type: "editStarted" });
    expect(reduce(editing, { type: "submitted", at: AT }).call?.message).toBe("Move 2.");
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
    "free_openings_used",
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

  it("free openings used up: the text back, and from then on the opening is priced", () => {
    const { before, sent, callId } = sending(0);
    expect(priceOf(before, "send")).toBe(0);
    expect(outOfCredits(before, 0)).toBe(false);
    const state = reduce(sent, { type: "refused", callId, code: "free_openings_used" });
    expect(state).toMatchObject({ freeOpeningAvailable: false, draft: "I open the letter.", messages: before.messages });
    expect(priceOf(state, "send")).toBe(1);
    expect(outOfCredits(state, 0)).toBe(true);
  });

  it("other refusals of an opening leave the free openings as they were", () => {
    const { sent, callId } = sending(0);
    for (const code of ["insufficient_credits", "rate_limited", "internal"] as const) {
      expect(reduce(sent, { type: "refused", callId, code }).freeOpeningAvailable).toBe(true);
    }
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

  it("Continue goes on before the reply's choices, which are its last part again once stored, and typed numbers still pick them", () => {
    const reply = "The hall falls silent.\n\n1. Summon the Regent.\n2. Wait.";
    const start = initialStoryState(storyView(2, { messages: [...exchange(1), ...exchange(2, reply)] }));
    const continuing = reduce(start, { type: "controlled", kind: "continue" });
    const callId = continuing.call?.id ?? 0;
    // While it is written, the choices are put aside and the continuation follows the story's words.
    expect(latestReply(continuing)?.content).toBe("The hall falls silent.");
    const written = reduce(continuing, { type: "token", callId, text: "\n\nA bell rings." }, { type: "replyEnded", callId, how: "done" });
    expect(latestReply(written)?.content).toBe("The hall falls silent.\n\nA bell rings.");
    const stored = continuedReply(reply, "\n\nA bell rings.");
    const shown = reduce(
      written,
      { type: "storyLoaded", view: storyView(2, { revision: 3, messages: [...exchange(1), ...exchange(2, stored)] }) },
      { type: "settled", callId },
    );
    expect(latestChoices(shown)).toEqual(["Summon the Regent.", "Wait."]);
    const sent = reduce(shown, { type: "draftChanged", text: "2" }, { type: "submitted", at: AT });
    expect(sent.call).toMatchObject({ kind: "send", message: "Wait." });
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
