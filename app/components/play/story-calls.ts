import type { MessageRole } from "#app/lib/constants.ts";
import type { ErrorCode } from "#app/lib/error-codes.ts";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import { replyToContinue } from "#app/lib/story-choices.ts";
import { opensStory } from "#app/lib/turn-cost.ts";
import { refusalReaction } from "./story-refusals.ts";
import { composedMessage, isPending, latestAction, latestReply } from "./story-selectors.ts";
import type { CallKind, ChatMessage, ReplyStream, StoryAction, StoryCall, StoryScreenState } from "./story-state.ts";

/**
 * The transitions of a call of this tab — a turn, a story control, Undo or a version switch — and
 * of a reply followed from elsewhere: shown at once (optimistically), filled in token by token,
 * and put right by how the call ended (docs/spec.md §8's reactions to every way a turn can fail).
 */

export type CallAction = Extract<
  StoryAction,
  {
    type:
      | "submitted"
      | "controlled"
      | "changeRequested"
      | "announced"
      | "token"
      | "replyEnded"
      | "callFailed"
      | "refused"
      | "settled"
      | "replyAttached"
      | "attachedToken"
      | "replyDetached";
  }
>;

export function callReducer(state: StoryScreenState, action: CallAction): StoryScreenState {
  switch (action.type) {
    case "submitted":
      return action.choice === undefined ? submitted(state, action.at) : choiceSent(state, action.choice, action.at);
    case "controlled":
      return action.kind === "sendAgain"
        ? controlled(state, "edit", latestAction(state)?.content ?? null, null)
        : controlled(state, action.kind, null, null);
    case "changeRequested":
      if (!state.storyId || isPending(state)) return state;
      return startCall(state, action.kind, state.exchanges);
    case "announced":
      // The server says what it charged: an opening it charged for means the free openings are used up.
      return withOpenCall(state, action.callId, () => ({
        ...state,
        storyId: action.turn.storyId,
        freeOpeningAvailable: opensStory(action.turn) ? action.turn.charged === 0 : state.freeOpeningAvailable,
      }));
    case "token":
      return withOpenCall(state, action.callId, (call) => {
        if (!call.reply) return state;
        const reply = { ...call.reply, text: call.reply.text + action.text };
        return { ...state, call: { ...call, reply }, messages: withReplyText(state.messages, reply) };
      });
    case "replyEnded":
      return withOpenCall(state, action.callId, (call) => replyEnded(state, call, action.how));
    case "callFailed":
      return withOpenCall(state, action.callId, (call) => failed(state, call));
    case "refused":
      return withOpenCall(state, action.callId, (call) => refused(state, call, action.code));
    case "settled":
      if (state.call?.id !== action.callId) return state;
      return {
        ...state,
        call: null,
        composerFocus: state.call.composed && !state.call.composed.picked ? state.composerFocus + 1 : state.composerFocus,
      };
    case "replyAttached":
      if (state.call) return state;
      return { ...state, attached: { key: String(action.turn.replyId), before: action.turn.replySoFar, text: "" } };
    case "attachedToken": {
      if (!state.attached) return state;
      const attached = { ...state.attached, text: state.attached.text + action.text };
      return { ...state, attached, messages: withReplyText(state.messages, attached) };
    }
    case "replyDetached":
      return state.attached ? { ...state, attached: null } : state;
  }
}

/** Applies `change` to the call the action is about while its answer is open; anything else is old news. */
function withOpenCall(state: StoryScreenState, callId: number, change: (call: StoryCall) => StoryScreenState) {
  return state.call?.id === callId && !state.call.ended ? change(state.call) : state;
}

function withReplyText(messages: ChatMessage[], reply: ReplyStream) {
  const content = reply.before + reply.text;
  return messages.map((message) => (message.key === reply.key ? { ...message, content } : message));
}

function startCall(state: StoryScreenState, kind: CallKind, exchange: number): StoryScreenState {
  const serial = state.serial + 1;
  const call: StoryCall = { id: serial, kind, exchange, message: null, ended: false, reply: null, userKey: null, replaced: [], composed: null };
  return { ...state, serial, call, behind: null };
}

function localMessage(key: string, role: MessageRole, content: string, at: string, extra: Partial<ChatMessage> = {}): ChatMessage {
  return { key, role, content, status: "complete", version: 1, versions: 1, createdAt: at, ...extra };
}

/** The composer's text sent (in its Do / Say / Story mode): a new turn, or the Edit of the latest exchange. */
function submitted(state: StoryScreenState, at: string): StoryScreenState {
  if (isPending(state)) return state;
  const message = composedMessage(state);
  if (!message) return state;
  // A Check goes with a new message only: an Edit keeps the exchange's roll (docs/decisions/061).
  const composed = { text: state.draft, editing: state.editing, check: state.editing ? null : state.check };
  const cleared = { ...state, draft: "", editing: false, highlighted: null, check: state.editing ? state.check : null };
  if (state.editing) {
    const edited = controlled(cleared, "edit", message, composed);
    return edited === cleared ? state : edited;
  }
  return turnStarted(cleared, message, composed, at);
}

/**
 * A suggested choice picked: sent at once as a new turn (docs/decisions/048), leaving what the
 * player was typing where it is. Not while an Edit is open: the choices belong to the reply it replaces.
 */
function choiceSent(state: StoryScreenState, choice: string, at: string): StoryScreenState {
  if (isPending(state) || state.editing || !choice.trim()) return state;
  return turnStarted({ ...state, highlighted: null }, choice, { text: choice, editing: false, picked: true }, at);
}

function turnStarted(state: StoryScreenState, message: string, composed: StoryCall["composed"], at: string): StoryScreenState {
  const started = startCall(state, "send", state.exchanges + 1);
  const userKey = `local-${started.serial}-user`;
  const replyKey = `local-${started.serial}-reply`;
  return {
    ...started,
    call: { ...(started.call as StoryCall), message, userKey, reply: { key: replyKey, before: "", text: "" }, composed },
    messages: [
      ...state.messages.filter((entry) => !entry.local),
      localMessage(userKey, "user", message, at),
      localMessage(replyKey, "assistant", "", at, { status: "streaming" }),
    ],
    follows: state.follows + 1,
  };
}

/** A paid control on the latest exchange, shown at once: the reply emptied (or kept, to Continue) and being written. */
function controlled(
  state: StoryScreenState,
  kind: "retry" | "continue" | "edit",
  message: string | null,
  composed: StoryCall["composed"],
): StoryScreenState {
  if (!state.storyId || isPending(state) || (kind === "edit" && !message)) return state;
  const latest = state.exchanges;
  const reply = latestReply(state);
  // Continue goes on from the reply's text; its choices come back after it (continuedReply).
  const before = kind === "continue" ? replyToContinue(reply?.content ?? "") : "";
  const started = startCall(state, kind, latest);
  const story = state.messages.filter((entry) => !entry.local);
  return {
    ...started,
    call: {
      ...(started.call as StoryCall),
      message,
      reply: reply ? { key: reply.key, before, text: "" } : null,
      replaced: story.filter((entry) => entry.exchange === latest),
      composed,
    },
    messages: story.map((entry) => {
      if (entry.exchange !== latest) return entry;
      if (entry.role === "user") return kind === "edit" && message ? { ...entry, content: message } : entry;
      const versions = kind === "retry" ? entry.versions + 1 : entry.versions;
      return { ...entry, content: before, status: "streaming", version: kind === "retry" ? versions : entry.version, versions };
    }),
    follows: state.follows + 1,
  };
}

function replyEnded(state: StoryScreenState, call: StoryCall, how: "done" | "error" | "cut"): StoryScreenState {
  const hadText = (call.reply?.text ?? "") !== "";
  if (how === "error") return hadText ? withApology(complete(state, call), call) : failed(state, call);
  // A cut connection: what arrived stays as it is until the stored story tells the rest.
  if (how === "cut") return { ...state, call: { ...call, ended: true } };
  if (hadText || call.kind !== "send") return complete(state, call);
  // A reply with no text at all: docs/spec.md §8's apology in its place, and the turn not part of the story.
  return {
    ...state,
    call: { ...call, ended: true },
    messages: state.messages.map((entry) =>
      entry.key === call.reply?.key
        ? { ...entry, content: PLAY_TEXTS.emptyReply, status: "complete", local: true }
        : entry.key === call.userKey
          ? { ...entry, local: true }
          : entry,
    ),
  };
}

/** The reply as it arrived is the reply (the server keeps what the player saw). */
function complete(state: StoryScreenState, call: StoryCall): StoryScreenState {
  const key = call.reply?.key;
  return {
    ...state,
    call: { ...call, ended: true },
    messages: state.messages.map((entry) => (entry.key === key ? { ...entry, status: "complete" } : entry)),
  };
}

/** A turn that failed gets docs/spec.md §8's apology after it; the story controls have none (the toast says it). */
function withApology(state: StoryScreenState, call: StoryCall): StoryScreenState {
  if (call.kind !== "send") return state;
  // Dated with the player's message it answers: the reducer reads no clock.
  const sentAt = state.messages.find((entry) => entry.key === call.userKey)?.createdAt ?? "";
  const note = localMessage(`local-${call.id}-note`, "assistant", PLAY_TEXTS.errorReply, sentAt, { local: true });
  return { ...state, messages: [...state.messages, note] };
}

/** Nothing was written: the call is undone on the server, and on screen. */
function failed(state: StoryScreenState, call: StoryCall): StoryScreenState {
  const ended = { ...state, call: { ...call, ended: true } };
  if (call.kind !== "send") return { ...ended, messages: rolledBack(state.messages, call) };
  // Without any reply text the turn was undone: the player's message stays on screen, outside the story.
  const messages = state.messages
    .filter((entry) => entry.key !== call.reply?.key)
    .map((entry) => (entry.key === call.userKey ? { ...entry, local: true } : entry));
  return withApology({ ...ended, messages }, call);
}

function rolledBack(messages: ChatMessage[], call: StoryCall) {
  const before = new Map(call.replaced.map((entry) => [entry.key, entry]));
  return messages.map((entry) => before.get(entry.key) ?? entry);
}

function refused(state: StoryScreenState, call: StoryCall, code: ErrorCode | undefined): StoryScreenState {
  const { giveBack } = refusalReaction(code, undefined);
  // The server says the player's free openings are used up: from now on the opening is priced (turnCost's input).
  const known = { ...state, freeOpeningAvailable: state.freeOpeningAvailable && code !== "free_openings_used" };
  if (!giveBack) return failed(known, call);
  const { composed } = call;
  return {
    ...known,
    call: { ...call, ended: true },
    messages:
      call.kind === "send"
        ? state.messages.filter((entry) => entry.key !== call.userKey && entry.key !== call.reply?.key)
        : rolledBack(state.messages, call),
    // What the player typed meanwhile stays; otherwise their text comes back.
    draft: composed ? state.draft || composed.text : state.draft,
    editing: composed ? composed.editing : state.editing,
    check: composed?.check ?? state.check,
  };
}
