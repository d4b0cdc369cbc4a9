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

/**
 * A reply after Continue: the continuation goes on from the reply's text, before the choices it
 * ended with, so they stay its last part (offered as buttons, picked by their number). A
 * continuation that ends with choices of its own offers those instead.
 */
export function continuedReply(reply: string, continuation: string): string {
  const closing = closingChoices(reply);
  if (!closing) return reply + continuation;
  const extended = closing.body + continuation;
  return closingChoices(extended) ? extended : `${extended.trimEnd()}\n\n${closing.list}`;
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
