import { INTRODUCES, introducesSomeone } from "../introductions.server.ts";
import { capitalise, toSecondPerson } from "./telling.server.ts";
import { splitSentences } from "./text.server.ts";

/**
 * What the story remembers that the world's content does not: the facts the player pinned, what
 * the player said in earlier turns, and the summary of the turns that have left the context. A
 * question about one of them ("Where did I hide the hairpin?") is answered from it.
 */
export interface StoryMemory {
  pinnedFacts: string[];
  /** The rolling summary; the offline one holds the player's lines as "You: …". */
  storySoFar: string;
}

const STOP_WORDS = new Set(
  "what where when which while with would could should their there these those them they this that have from into your know really about does did done the and who whom whose how much many name tell".split(
    " ",
  ),
);

/** The name a line brings someone in by: "…named Ouyang Min to keep…" → "Ouyang Min". */
const INTRODUCED_NAME = /\b(?:named|called|name (?:it|him|her))\s+(\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*)*)/u;

const QUESTION = /^(?:who|what|where|when|why|how|which|can|could|should|is|are|do|does|did|tell me)\b|\b(?:ask|asks|inquire|wonder)\b/i;

/** The words a question and a remembered line can share: "owes" and "owe" are one word. */
function keyWords(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .replace(/['’]s\b/g, "")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length >= 4 && !STOP_WORDS.has(word))
      .map((word) => word.replace(/(?:ing|ed|es|s|e)$/, "")),
  );
}

/**
 * The player's own words a reply carried forward ("Your orders stand: you appoint a young scribe
 * named…"), so they outlive the turn that said them: the line after the reply's lead, as it was told.
 */
function carriedLines(previousReplies: readonly string[]): string[] {
  return previousReplies.flatMap((reply) =>
    splitSentences(reply).flatMap((sentence) => {
      const line = sentence.replace(/^[^:“”]{1,60}:\s+(?=you\b)/i, "");
      return INTRODUCES.test(line) && /^you\b/i.test(line) ? [capitalise(line)] : [];
    }),
  );
}

/** "I appoint a scribe named…" as the narrator tells it: "You appoint a scribe named…". */
export function toldToThePlayer(line: string) {
  const told = capitalise(toSecondPerson(line.trim()).replace(/[“”"]/g, ""));
  return /[.!?]$/.test(told) ? told : `${told}.`;
}

/**
 * The exchanges a carried line may be behind the newest before it is told again. Old exchanges
 * leave the context a block at a time, and the window shrinks as the story's summary grows
 * (context.server.ts, story-summary.server.ts): at the default budget a seeded game's window holds
 * five to eight exchanges and lets four go at once, so only the newest three are sure to survive
 * the next turn.
 */
const CARRIED_WITHIN_EXCHANGES = 3;

/**
 * The player's line bringing someone into the story, as the narrator tells it, when it is about to
 * leave what the storyteller can see: in none of the newest few turns, nor in the story's summary
 * (which keeps such lines, story-summary.server.ts). Carried into this reply, it stays in the
 * context until the summary holds it: told again only while it would otherwise be lost.
 */
export function introductionToCarry(
  memory: StoryMemory,
  previousActions: readonly string[],
  previousReplies: readonly string[],
  edge = Math.max(1, previousActions.length - CARRIED_WITHIN_EXCHANGES),
): string | undefined {
  const summarised = summaryLines(memory);
  const visible = [
    ...previousActions.slice(edge),
    ...previousReplies.slice(edge),
    ...carriedLines(previousReplies.slice(edge)),
    // A carried line reads "You appoint…": the summary's "I appoint…" as the narrator tells it.
    ...summarised.map(toldToThePlayer),
  ].join("\n");
  const known = previousActions
    .flatMap((action) => splitSentences(action))
    .filter(introducesSomeone)
    .map((line) => ({ line, told: toldToThePlayer(line) }));
  for (const told of carriedLines(previousReplies)) known.push({ line: told, told });
  return known.find(({ line, told }) => !visible.includes(line) && !visible.includes(told))?.told;
}

function summaryLines(memory: StoryMemory) {
  return splitSentences(memory.storySoFar.replace(/\bYou: /g, "\n")).filter((sentence) => /^(?:I|My)\b/.test(sentence));
}

/** What the player may be asking after: pinned facts first, then their own earlier statements, newest first, each with the words it must share. */
function rememberedLines(
  memory: StoryMemory,
  previousActions: readonly string[],
  previousReplies: readonly string[],
  asked: Set<string>,
): { line: string; needs: number }[] {
  const said = [...previousActions].reverse().flatMap((action) => splitSentences(action));
  // A pinned fact is there to be asked about; a line the player once said must match more closely.
  return [
    ...memory.pinnedFacts.map((line) => ({ line, needs: Math.min(2, asked.size) || 1 })),
    ...[...said, ...summaryLines(memory).reverse(), ...carriedLines(previousReplies)]
      .filter((line) => !/\?\s*$/.test(line) && !QUESTION.test(line))
      .map((line) => ({ line, needs: INTRODUCES.test(line) ? 2 : 3 })),
  ];
}

/**
 * The remembered line a question is about, in the second person ("Your late mother's jade hairpin
 * is hidden under…"): the one sharing the most words with it, when it shares enough of them.
 */
export function rememberedAnswer(
  question: string,
  memory: StoryMemory,
  previousActions: readonly string[],
  previousReplies: readonly string[] = [],
): string | undefined {
  // Names say whom a question is about, not what: "Can I trust Headmistress Octavia Fairweather?" is no memory of a meeting with her.
  const asked = keyWords(question.replace(/(?<!^)\b\p{Lu}[\p{L}'’-]*/gu, ""));
  let best: { line: string; score: number } | undefined;
  for (const { line, needs } of rememberedLines(memory, previousActions, previousReplies, asked)) {
    const score = [...keyWords(line)].filter((word) => asked.has(word)).length;
    if (score >= needs && (!best || score > best.score)) best = { line, score };
  }
  return best && toldToThePlayer(best.line);
}

/** Words that open what is left of a line once the asked part is gone, and say nothing on their own: "is", "you", "it". */
const LEFTOVER_OPENING = /^(?:[\s,;:—–-]|\b(?:is|are|was|were|you|it)\b)+/i;

/** Words a question and its answer share without saying what is asked: "what", "my", "the". */
const QUESTION_GLUE = new Set("the and you your what where which who whom how much many did does for that this with from".split(" "));

/** A word as a question and a line can share it, whatever its ending: "owe" and "owes", "name" and "named". */
function wordForms(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/['’]s\b/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length >= 3 && !QUESTION_GLUE.has(word))
    .map((word) => word.replace(/(?:ing|ed|es|s|e|d)$/, ""));
}

/**
 * What a remembered line says that the question does not: the answer a person gives. "Where is my
 * mother's second will hidden?" is answered "Behind the loose brick of the wine cellar", not with
 * the whole line again; asked twice in a long story, the question gets the answer, not the same
 * sentence. The line is kept whole when what follows the question's last word adds nothing new
 * ("What must I return to cancel our debt to the Vey Bank?": "to the Vey Bank").
 */
export function answerTo(question: string, line: string): string {
  // "What is the name of the scribe…?", "What did I name the hedgehog?": the name someone was given.
  const named = /\bname\b|^who\b/i.test(question) ? INTRODUCED_NAME.exec(line)?.[1] : undefined;
  if (named) return `${named}.`;
  const asked = new Set(wordForms(question));
  const askedWords = new Set(question.toLowerCase().split(/[^\p{L}\p{N}]+/u));
  const words = [...line.matchAll(/[\p{L}\p{N}'’-]+/gu)];
  const lastWord = words.findLast((match) => wordForms(match[0]).some((form) => asked.has(form)));
  if (lastWord === undefined) return line;
  const rest = line.slice(lastWord.index + lastWord[0].length).replace(LEFTOVER_OPENING, "");
  const adds = rest.split(/[^\p{L}\p{N}-]+/u).some((word) => word.length >= 3 && !askedWords.has(word.toLowerCase()));
  // A rest with a verb of its own ("second will is hidden behind…", asked "What of my mother?") is a clause, not an answer.
  const clause = /\b(?:is|are|was|were|has|have|had)\b/i.test(rest);
  return adds && !clause ? capitalise(rest) : line;
}
