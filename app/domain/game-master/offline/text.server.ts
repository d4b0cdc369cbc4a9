/**
 * Text helpers of the offline storyteller: turning the content's notes to its narrator into words a
 * story may say ("the player's" → "your"), telling a sentence about the game from one about its
 * world, sentences, numbers in words, and a seeded random generator.
 */

// ---------------------------------------------------------------------------------------------
// Words about the game, not the world

/** "the player's lady-in-waiting" → "your lady-in-waiting"; "if the player changes" → "if you change". */
export function playerAsYou(text: string) {
  return (
    text
      .replace(/\b[Tt]he player's\b/g, "your")
      .replace(/\b[Tt]he player (is|was|has)\b/g, (_match, verb: string) => `you ${{ is: "are", was: "were", has: "have" }[verb] ?? verb}`)
      .replace(/\b[Tt]he player ([a-z]+?)(e?s)\b/g, (match, stem: string, ending: string) => {
        if (/^(is|was|has|ss|us)$/.test(stem + ending) || stem.length < 2) return match;
        return `you ${ending === "es" && /(ch|sh|ss|x|o)$/.test(stem) ? stem : stem + (ending === "es" ? "e" : "")}`;
      })
      .replace(/\b[Tt]he player\b/g, "you")
      // "the winter pay starts the game 400,000 taels short": the story is already under way.
      .replace(/\bstarts the game\b/g, "is")
      .replace(/\b(at|from) the start of the game\b/g, "$1 the start")
  );
}

const META =
  /\b(game master|game|games|player|players|npcs?|narrat\w*|stats?|status|typed?|typing|repl(y|ies)|numbered|choices|role-?play|pg(-13)?|chatbot|ai|prompt|arcs?|endings?|optional|slow-burn|bonds?|numbers)\b|\bin rare runs\b|\bthe rules\b|\byours to (decide|write)\b|\b(raise|lower)s? it\b|simulator/i;
/** The first words of a player's guide ("Put dialogue in quotes…", "Ask follow-up questions…"). */
const INSTRUCTION =
  /^(put|write|give|describe|ask|state|choose|address|speak|stay|read|listen|type|pick|keep|make|use|track|end|begin|note|remember|try|tell|say|let|open|treat|show|skip|never|always|find|decide|help|promise|tutor|do|deny|win|whether|if you|when you|most|some|each|every|the best)\b/i;

/** Whether a sentence talks about the game (its stats, its Game Master, its player) rather than its world. */
export function isAboutTheGame(sentence: string, statLabels: readonly string[] = [], title = "") {
  if (META.test(sentence) || INSTRUCTION.test(sentence.trim())) return true;
  if (title && sentence.toLowerCase().includes(title.toLowerCase())) return true;
  // A player's example ("I thank Aurelien…") or a question to them.
  if (/(^|[^"“\w])I\b/.test(sentence.replace(/["“][^"”]*["”]/g, "")) || /\?\s*$/.test(sentence)) return true;
  return statLabels.some((label) => {
    if (!new RegExp(`\\b${escapeRegExp(label)}\\b`).test(sentence)) return false;
    // "Dao Heart rises when…", "Below 40, …", "Grace 75", "rides Fame", "puts Craft first": the game's bookkeeping.
    return (
      /\b(rises?|raises?|falls?|lowers?|costs?|climbs?|grows?|drops?|shrinks?|builds?|rides?|gains?|loses?|cheap|expensive)\b|\b(below|above|under|over)\s+\d|\bputs \w+ first\b/i.test(
        sentence,
      ) || new RegExp(`\\b${escapeRegExp(label)}\\s+\\d`).test(sentence)
    );
  });
}

/** mulberry32: a small seeded generator, so a story (or a scripted player) replays identically. */
export function seededRandom(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

export function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// ---------------------------------------------------------------------------------------------
// Text helpers

const NUMBER_WORDS =
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(" ");
const TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split(" ");

/** 61 → "sixty-one": ages read better in words. */
export function numberInWords(value: number) {
  if (value < 20) return NUMBER_WORDS[value] ?? String(value);
  if (value < 100) {
    const tens = TENS[Math.floor(value / 10)] ?? "";
    return value % 10 === 0 ? tens : `${tens}-${NUMBER_WORDS[value % 10] ?? ""}`;
  }
  return String(value);
}

export function stripMarkdown(text: string) {
  return text
    .replace(/\*\*|__/g, "")
    .replace(/(^|[\s(“"])[*_](\S)/g, "$1$2")
    .replace(/(\S)[*_](?=[\s)”".,;:!?]|$)/g, "$1");
}

/**
 * A detail as a story may say it: parentheses that hold an age become words ("(61, the late
 * emperor's mother)" → "sixty-one years old, the late emperor's mother"); other parentheses are
 * notes for the narrator and go.
 */
export function cleanDetail(detail: string) {
  return detail
    .replace(
      /\s*\((\d{1,2})(?=[,)])\)?,?\s*([^)]*)\)?/g,
      (_match, age: string, rest: string) => `, ${numberInWords(Number(age))} years old${rest ? `, ${rest}` : ""}`,
    )
    .replace(/\s*\([^)]*\)/g, "")
    .replace(/^\s*,\s*(?=\w)/, (match) => (match.includes(",") ? ", " : ""))
    .replace(/\s+/g, " ")
    .replace(/\s+([,.;:])/g, "$1")
    .replace(/^[\s.,;:]*$/, "")
    .trim();
}

export function firstSentence(text: string) {
  const clean = text.replace(/\s+/g, " ").trim();
  const match = /^(.+?(?<!\b(?:Mr|Mrs|Ms|Dr|St))[.!?])(\s|$)/.exec(clean);
  return (match?.[1] ?? clean).trim();
}

/** The sentences of a paragraph ("Mr. Quill" is not an ending). */
export function splitSentences(text: string) {
  return (
    text
      .replace(/\s+/g, " ")
      .match(/(?:[^.!?]|(?<=\b(?:Mr|Mrs|Ms|Dr|St))\.)+(?:[.!?]+["”]?|$)/g)
      ?.map((sentence) => sentence.trim())
      .filter((sentence) => sentence.length > 0) ?? []
  );
}

/** The clauses of a text long enough to notice written twice: four words or more, compared without case or punctuation. */
function clausesOf(text: string): string[] {
  return text
    .split(/[.,;:!?…—–\n]+/)
    .map((clause) =>
      clause
        .toLowerCase()
        .replace(/[^\p{L}\p{N}' ]+/gu, " ")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((clause) => clause.split(" ").length >= 4);
}

/** Whether a paragraph would write a clause again that `before` (the reply so far) already has. */
export function repeatsAClause(paragraph: string, before: string) {
  const earlier = new Set(clausesOf(before));
  return clausesOf(paragraph).some((clause) => earlier.has(clause));
}

/** A run of this many words a reader recognises as said before, even inside another sentence. */
export const RECOGNISED_RUN_WORDS = 8;

/** Every run of `RECOGNISED_RUN_WORDS` consecutive words of a text, without case or punctuation. */
export function wordRuns(text: string): string[] {
  const words = sentenceKey(text.replace(/[’‘]/g, "'")).split(" ").filter(Boolean);
  return Array.from({ length: Math.max(0, words.length - RECOGNISED_RUN_WORDS + 1) }, (_, start) =>
    words.slice(start, start + RECOGNISED_RUN_WORDS).join(" "),
  );
}

/** A sentence as a reader recognises it again: its words, without case or punctuation. */
export function sentenceKey(sentence: string) {
  return sentence
    .toLowerCase()
    .replace(/[^\p{L}\p{N}' ]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** Sentences this short ("Good.", "Not yet.") may come back without reading as a formula. */
const NOTICEABLE_WORDS = 4;

/**
 * A paragraph without the sentences the story has already told (`told`, by sentenceKey), unless
 * `keep` says a sentence carries the turn (who answers, the player's own words). Inside a longer
 * speech a told sentence goes too, its closing mark moving to the sentence before it; the one that
 * opens a speech stays, so no quotation mark is left unpaired.
 */
export function withoutToldSentences(paragraph: string, told: ReadonlySet<string>, keep: (sentence: string) => boolean) {
  const kept: string[] = [];
  let open = false;
  for (const sentence of splitSentences(paragraph)) {
    const opens = (sentence.match(/“/g) ?? []).length;
    const closes = (sentence.match(/”/g) ?? []).length;
    const opensSpeech: boolean = !open && opens > closes;
    const closesSpeech: boolean = open && closes > opens;
    const inside = open && !closesSpeech && opens === 0 && closes === 0;
    open = open ? !closesSpeech : opensSpeech;
    const key = sentenceKey(sentence);
    const droppable = !opensSpeech && (inside || closesSpeech || opens === closes) && !keep(sentence);
    if (!droppable || key.split(" ").length < NOTICEABLE_WORDS || !told.has(key)) {
      kept.push(sentence);
      continue;
    }
    // The speech ends here: its closing mark goes to the sentence before, which is still inside it.
    if (closesSpeech && kept.length > 0) kept[kept.length - 1] = `${kept.at(-1) ?? ""}”`;
  }
  return kept.join(" ");
}
