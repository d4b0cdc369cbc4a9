/**
 * The numbered choices a Game Master reply ends with ("1. …", "2. …"), so the play screen can
 * offer them as buttons. Only a run of at least two, numbered 1, 2, 3… at the very end counts.
 */
export interface StoryChoices {
  /** The reply without its closing list. */
  body: string;
  choices: string[];
}

const CHOICE = /^\s*(\d{1,2})[.)]\s+(.+?)\s*$/;

/** "**Seek out** the *Prince*" → "Seek out the Prince": what a player would type. */
export function plainChoice(text: string) {
  return text
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/(^|\W)[*_]([^*_]+)[*_](?=\W|$)/g, "$1$2")
    .replace(/`([^`]+)`/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .trim();
}

/** The closing run of choices: the reply before it, its lines as written, and its items. */
function closingChoices(reply: string): (StoryChoices & { list: string }) | undefined {
  const lines = reply.trimEnd().split("\n");
  let start = lines.length;
  while (start > 0 && CHOICE.test(lines[start - 1] ?? "")) start -= 1;
  const items = lines.slice(start).map((line) => {
    const [, number = "", text = ""] = CHOICE.exec(line) ?? [];
    return { number: Number(number), text: plainChoice(text) };
  });
  const sequential = items.every((item, index) => item.number === index + 1);
  if (items.length < 2 || !sequential) return undefined;
  return { body: lines.slice(0, start).join("\n").trimEnd(), list: lines.slice(start).join("\n"), choices: items.map((item) => item.text) };
}

export function splitStoryChoices(reply: string): StoryChoices {
  const closing = closingChoices(reply);
  return closing ? { body: closing.body, choices: closing.choices } : { body: reply, choices: [] };
}

/** A short closing paragraph that introduces the choices ("What do you do?", "You might:"). */
const INTRO = /[:?][*_\s]*$/;
const MAX_INTRO_LENGTH = 240;

/**
 * Where a Continue goes on from in a reply that ends with choices: its text without them, nor the
 * short paragraph that introduces them; `after` is what it keeps for after the continuation.
 */
function continuationPoint(reply: string): { from: string; after: string } {
  const closing = closingChoices(reply);
  if (!closing) return { from: reply, after: "" };
  const lastBreak = [...closing.body.matchAll(/\n[ \t]*\n/g)].at(-1)?.index;
  const intro = lastBreak === undefined ? "" : closing.body.slice(lastBreak).trim();
  if (!intro || intro.length > MAX_INTRO_LENGTH || !INTRO.test(intro)) return { from: closing.body, after: closing.list };
  return { from: closing.body.slice(0, lastBreak).trimEnd(), after: `${intro}\n\n${closing.list}` };
}

/** The text a Continue goes on from: the reply without the choices it ends with and their introduction. */
export function replyToContinue(reply: string): string {
  return continuationPoint(reply).from;
}

/**
 * A reply after Continue: the continuation goes on from the reply's text, before the choices it
 * ended with (and the line introducing them), so they stay its last part, offered as buttons and
 * picked by their number. A continuation that ends with choices of its own offers those instead.
 */
export function continuedReply(reply: string, continuation: string): string {
  const { from, after } = continuationPoint(reply);
  if (!after) return reply + continuation;
  const extended = from + continuation;
  return closingChoices(extended) ? extended : `${extended.trimEnd()}\n\n${after}`;
}

/**
 * What the player meant by what they typed: a number shown on a suggested choice ("2", "2.") or
 * a choice's exact text picks that choice, so the story shows the choice, not the digit.
 */
export function chosenAction(typed: string, choices: readonly string[]): string {
  const text = typed.trim();
  const number = /^(\d{1,2})[.)]?$/.exec(text)?.[1];
  if (number !== undefined) return choices[Number(number) - 1] ?? text;
  return choices.find((choice) => choice.toLowerCase() === text.toLowerCase()) ?? text;
}
