/**
 * The composer's Do / Say / Story modes: what the player types, rewritten into what the Game
 * Master is sent. Pure, so the composer can show the result before it is sent.
 */

export const ACTION_MODES = [
  { mode: "do", label: "Do", hint: "An action: “I open the door” is sent as “You open the door.”" },
  { mode: "say", label: "Say", hint: "Words your character speaks: “Hello” is sent as You say, “Hello.”" },
  { mode: "story", label: "Story", hint: "Narration, sent as you write it." },
] as const;

export type ActionMode = (typeof ACTION_MODES)[number]["mode"];

export function isActionMode(value: unknown): value is ActionMode {
  return ACTION_MODES.some((entry) => entry.mode === value);
}

/** What a message typed in a mode is sent as. */
export function actionInMode(typed: string, mode: ActionMode): string {
  const text = typed.trim();
  if (text === "" || mode === "story") return text;
  return mode === "say" ? spoken(text) : secondPerson(text);
}

const OPENING_QUOTES = /^["“”«]+|["“”»]+$/g;
const ENDS_A_SENTENCE = /[.!?…]$/;

/** Say: `You say, "…"`, the words capitalised and closed with a full stop unless they end a sentence already. */
function spoken(text: string): string {
  const words = text.replace(OPENING_QUOTES, "").trim();
  if (words === "") return text;
  const closed = ENDS_A_SENTENCE.test(words) ? words : `${words}.`;
  return `You say, "${closed.charAt(0).toUpperCase()}${closed.slice(1)}"`;
}

/** The first person's words and what they become; "am" and "was" only right after "I". */
const SECOND_PERSON: Record<string, string> = {
  i: "you",
  "i'm": "you're",
  "i've": "you've",
  "i'll": "you'll",
  "i'd": "you'd",
  me: "you",
  my: "your",
  mine: "yours",
  myself: "yourself",
  "i am": "you are",
  "i was": "you were",
};

/**
 * A first-person word, not inside another word: "I" (with its contractions, straight or curly
 * apostrophe, and "am"/"was" after it), "me", "my", "mine", "myself".
 */
const FIRST_PERSON =
  /(?<![\p{L}\p{N}'’])(i(?:\s+(?:am|was)(?![\p{L}\p{N}])|['’](?:m|ve|ll|d)(?![\p{L}\p{N}]))?|me|my|mine|myself)(?![\p{L}\p{N}]|['’]\p{L})/giu;

/** Quoted speech, straight or curly; an unclosed quote runs to the end. Left as the player wrote it. */
const QUOTED = /"[^"]*(?:"|$)|“[^”]*(?:”|$)/gu;

/**
 * Do: first person turned into second ("I draw my sword" → "You draw your sword"), quoted
 * speech left alone, the verbs kept as written. An action without "I" (`draw my sword`) is
 * given "You" before it. A full stop closes it unless it ends in punctuation.
 */
export function secondPerson(text: string): string {
  let rewritten = "";
  let from = 0;
  for (const quote of text.matchAll(QUOTED)) {
    rewritten += rewriteNarration(text.slice(from, quote.index), rewritten) + quote[0];
    from = quote.index + quote[0].length;
  }
  const endsInQuote = from === text.length;
  rewritten += rewriteNarration(text.slice(from), rewritten);
  if (!hasFirstPersonSubject(text)) rewritten = withYou(rewritten);
  return !endsInQuote && /[\p{L}\p{N}]$/u.test(rewritten) ? `${rewritten}.` : rewritten;
}

function rewriteNarration(narration: string, before: string): string {
  return narration.replace(FIRST_PERSON, (word: string, _group: string, offset: number) => {
    // The player's own apostrophe, straight or curly, is kept.
    const apostrophe = word.includes("’") ? "’" : "'";
    const replacement = (SECOND_PERSON[word.toLowerCase().replace("’", "'").replace(/\s+/, " ")] ?? word).replace("'", apostrophe);
    const allCapitals = word.length > 1 && word === word.toUpperCase() && /\p{Lu}/u.test(word.replace(/^I\b/, ""));
    if (allCapitals) return replacement.toUpperCase();
    const opensSentence = startsSentence(before + narration.slice(0, offset));
    // "I" is always a capital, so only a sentence's start keeps one; "My" or "Me" mid-sentence were written so on purpose.
    const isI = /^i\b/i.test(word);
    const capital = opensSentence || (!isI && /^\p{Lu}/u.test(word));
    return capital ? replacement.charAt(0).toUpperCase() + replacement.slice(1) : replacement;
  });
}

function startsSentence(before: string): boolean {
  const trimmed = before.trimEnd();
  return trimmed === "" || /[.!?…:]$/.test(trimmed) || /\n\s*$/.test(before);
}

function hasFirstPersonSubject(text: string): boolean {
  const narration = text.replace(QUOTED, " ");
  return /(?<![\p{L}\p{N}'’])i(?:['’](?:m|ve|ll|d))?(?![\p{L}\p{N}]|['’]\p{L})/iu.test(narration);
}

/** Words that open a sentence about something else ("The ring is mine"), not an order to "you". */
const NOT_A_VERB =
  /^(?:the|a|an|your|his|her|its|our|their|this|that|these|those|it|he|she|they|we|you|there|here|then|now|someone|something|everyone)(?![\p{L}\p{N}])/iu;

/**
 * "Draw my sword" → "You draw your sword". What opens with quoted speech or names something
 * else is left as written.
 */
function withYou(action: string): string {
  const first = action.charAt(0);
  if (first === '"' || first === "“" || NOT_A_VERB.test(action)) return action;
  const rest = /^\p{Lu}\p{Ll}/u.test(action) ? first.toLowerCase() + action.slice(1) : action;
  return `You ${rest}`;
}
