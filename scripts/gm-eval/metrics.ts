import type { StatValue, StoryState, TrackedStat } from "#app/lib/tracked-stats.ts";
import type { Character } from "./session-script.ts";
import {
  emphasisedLines,
  isEcho,
  mentions,
  names,
  ngrams,
  normalized,
  percentile,
  replyParts,
  sentences,
  statusItems,
  statusLines,
  words,
  type Mention,
} from "./text.ts";
import type { PlayedSession, PlayedTurn } from "./transcript.ts";

/**
 * The scorecard's metrics (issue 33), each computed from played sessions, never judged by a
 * person, like EQ-Bench's long-form and RPGBench's objective checks. Each is a pure function of
 * transcripts; a `Rate` says how many of the things it checked passed (or, for repetition and
 * stock phrases, how many were repeated), and which ones did not, by turn.
 */

export interface Failure {
  /** The turn, from 1 (the game's, for a cross-game metric). */
  turn: number;
  detail: string;
}

export interface Rate {
  count: number;
  of: number;
  failures: Failure[];
}

export interface Distribution {
  median: number | undefined;
  p90: number | undefined;
  count: number;
}

export function share(rate: Pick<Rate, "count" | "of">): number | undefined {
  return rate.of === 0 ? undefined : rate.count / rate.of;
}

/** The turns that produced a reply (a failed turn has nothing to measure). */
function answered(session: PlayedSession): PlayedTurn[] {
  return session.turns.filter((turn) => !turn.error);
}

function rate(checks: { turn: number; failure: string | undefined }[]): Rate {
  return {
    count: checks.filter((check) => check.failure === undefined).length,
    of: checks.length,
    failures: checks.flatMap(({ turn, failure }) => (failure === undefined ? [] : [{ turn, detail: failure }])),
  };
}

// ---------------------------------------------------------------------------------------------
// Repetition

/** Sentences shorter than this ("Good.", "Perhaps:") are left out: recurring, they say nothing. */
export const MIN_SENTENCE_WORDS = 4;
export const REPEATED_RUN_WORDS = 8;

/**
 * The share of the replies' sentences, and of their 8-word runs, that an earlier reply of the same
 * story already had. Prose only: recurring choices are the choices metric's, and a status line
 * repeats by design.
 */
export function repetition(session: PlayedSession): { sentences: Rate; runs: Rate } {
  const seenSentences = new Set<string>();
  const seenRuns = new Set<string>();
  const sentenceRate: Rate = { count: 0, of: 0, failures: [] };
  const runRate: Rate = { count: 0, of: 0, failures: [] };
  for (const turn of answered(session)) {
    const { prose } = replyParts(turn.reply);
    const own = sentences(prose)
      .map(normalized)
      .filter((sentence) => sentence.split(" ").length >= MIN_SENTENCE_WORDS);
    for (const sentence of own) {
      sentenceRate.of += 1;
      if (seenSentences.has(sentence)) {
        sentenceRate.count += 1;
        sentenceRate.failures.push({ turn: turn.number, detail: sentence });
      }
    }
    const runs = ngrams(words(prose), REPEATED_RUN_WORDS);
    const repeatedRuns = runs.filter((run) => seenRuns.has(run));
    runRate.of += runs.length;
    runRate.count += repeatedRuns.length;
    if (repeatedRuns[0] !== undefined) {
      const count = repeatedRuns.length === 1 ? "1 run" : `${repeatedRuns.length} runs`;
      runRate.failures.push({ turn: turn.number, detail: `${count}, e.g. "${repeatedRuns[0]}"` });
    }
    for (const sentence of own) seenSentences.add(sentence);
    for (const run of runs) seenRuns.add(run);
  }
  return { sentences: sentenceRate, runs: runRate };
}

// ---------------------------------------------------------------------------------------------
// Stock phrases

export const STOCK_PHRASE_WORDS = 5;
/** A phrase is stock when this many replies use it… */
export const STOCK_PHRASE_REPLIES = 3;
/** …in at least this many games. */
export const STOCK_PHRASE_GAMES = 2;

export interface StockPhrases {
  /** Of all 5-word runs of every game's replies, those that are stock; undefined with a single game. */
  overall: Rate | undefined;
  byGame: Record<string, Rate>;
  /** The most used stock phrases. */
  top: { phrase: string; replies: number; games: number }[];
}

/** A reply's texts whose runs count: its prose and each choice apart (a run never spans two choices). */
function replyTexts(reply: string): string[] {
  const { prose, choices } = replyParts(reply);
  return [prose, ...choices];
}

/**
 * Phrases of five words or more that recur across replies and across games: a storyteller's
 * formulas rather than a story's words. The rate is the share of all 5-word runs that are stock.
 */
export function stockPhrases(sessions: readonly PlayedSession[]): StockPhrases {
  const seen = new Map<string, { replies: Set<string>; games: Set<string> }>();
  const runsOf = (reply: string) => replyTexts(reply).flatMap((text) => ngrams(words(text), STOCK_PHRASE_WORDS));
  for (const session of sessions) {
    for (const turn of answered(session)) {
      for (const run of runsOf(turn.reply)) {
        const entry = seen.get(run) ?? { replies: new Set(), games: new Set() };
        entry.replies.add(`${session.game}#${turn.number}`);
        entry.games.add(session.game);
        seen.set(run, entry);
      }
    }
  }
  const stock = new Set(
    [...seen].filter(([, entry]) => entry.replies.size >= STOCK_PHRASE_REPLIES && entry.games.size >= STOCK_PHRASE_GAMES).map(([run]) => run),
  );
  const byGame: Record<string, Rate> = {};
  for (const session of sessions) {
    const gameRate: Rate = { count: 0, of: 0, failures: [] };
    for (const turn of answered(session)) {
      const runs = runsOf(turn.reply);
      const stockRuns = runs.filter((run) => stock.has(run));
      gameRate.of += runs.length;
      gameRate.count += stockRuns.length;
      if (stockRuns[0] !== undefined) gameRate.failures.push({ turn: turn.number, detail: `"${stockRuns[0]}"` });
    }
    byGame[session.game] = gameRate;
  }
  const rates = Object.values(byGame);
  const games = new Set(sessions.map((session) => session.game));
  const top = [...stock]
    .map((phrase) => ({ phrase, replies: seen.get(phrase)?.replies.size ?? 0, games: seen.get(phrase)?.games.size ?? 0 }))
    .sort((a, b) => b.replies - a.replies || a.phrase.localeCompare(b.phrase))
    .slice(0, 12);
  return {
    overall:
      games.size < STOCK_PHRASE_GAMES
        ? undefined
        : {
            count: rates.reduce((sum, each) => sum + each.count, 0),
            of: rates.reduce((sum, each) => sum + each.of, 0),
            failures: [],
          },
    byGame,
    top,
  };
}

// ---------------------------------------------------------------------------------------------
// Answering the addressee

/** Paragraphs of prose without scene headings and without the sentences that only restate the player's message. */
function storyParagraphs(prose: string, message: string): string[] {
  const headings = new Set(emphasisedLines(prose));
  return prose
    .split(/\n\s*\n/)
    .map((paragraph) =>
      sentences(paragraph)
        .filter((sentence) => !headings.has(sentence) && !isEcho(sentence, message))
        .join(" "),
    )
    .filter(Boolean);
}

/** Speech in a paragraph: “…” or "…", in order. */
function speeches(paragraph: string): { start: number; end: number }[] {
  return [...paragraph.matchAll(/“[^“”]*”|"[^"]*"/g)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

function outsideSpeech(found: Mention<Character>[], spoken: { start: number; end: number }[]) {
  return found.filter((mention) => !spoken.some((speech) => mention.start >= speech.start && mention.start < speech.end));
}

/**
 * Who answers in a reply: the speaker of its first speech — named in a speech tag after it
 * (“…,” says Madam Lin), or else the first person named in the last sentence before it that names
 * anyone — or, with no speech, the first person the prose names. Undefined when it names nobody.
 */
export function firstResponder(prose: string, message: string, cast: readonly Character[]): Character | undefined {
  const paragraphs = storyParagraphs(prose, message);
  for (const paragraph of paragraphs) {
    const spoken = speeches(paragraph);
    const first = spoken[0];
    if (!first) continue;
    const named = outsideSpeech(mentions(paragraph, cast), spoken);
    // A speech tag follows only a speech its sentence goes on from: “…,” says X / “…?” X asks / “…” he says.
    const rest = paragraph.slice(first.end);
    const tagged = /[,?!—–-]$/.test(paragraph.slice(first.start + 1, first.end - 1).trimEnd()) || /^\s*\p{Ll}/u.test(rest);
    const sentenceEnd = rest.search(/[.!?](?:\s|$)|“|"/);
    const tagEnd = sentenceEnd < 0 ? paragraph.length : first.end + sentenceEnd + 1;
    const after = tagged ? named.find((mention) => mention.start >= first.end && mention.start < tagEnd) : undefined;
    // Before the speech, the subject of the last sentence that names someone: "Ilse answers before the Captain can. “…”" is Ilse.
    const lastNaming = named.filter((mention) => mention.start < first.start).at(-1);
    const sentenceStart = lastNaming ? paragraph.slice(0, lastNaming.start).search(/[^.!?]*$/) : -1;
    // A possessive is not the subject: in "the emperor's brother-in-law, Marquis Mu, drove them back" the Marquis is.
    const possessive = (mention: Mention<Character>) => /^['’]s\b/.test(paragraph.slice(mention.end));
    const before = named.find(
      (mention) =>
        lastNaming && mention.start >= sentenceStart && mention.start <= lastNaming.start && (!possessive(mention) || mention === lastNaming),
    );
    const speaker = after ?? before;
    if (speaker) return speaker.who;
  }
  for (const paragraph of paragraphs) {
    const [named] = outsideSpeech(mentions(paragraph, cast), speeches(paragraph));
    if (named) return named.who;
  }
  return undefined;
}

/** When the player speaks to a named character, that character (not another) speaks or acts first in the reply. */
export function answersAddressee(session: PlayedSession): Rate {
  return rate(
    answered(session).flatMap((turn) => {
      const to = turn.step.kind === "ask" || turn.step.kind === "risky" ? turn.step.to : undefined;
      if (to === undefined) return [];
      const addressee = session.cast.find((character) => character.name === to);
      if (!addressee) throw new Error(`The script speaks to ${to}, who is not in its cast.`);
      const responder = firstResponder(replyParts(turn.reply).prose, turn.message, session.cast);
      const failure =
        responder === addressee
          ? undefined
          : responder
            ? `${responder.name} answered ${addressee.name}`
            : `nobody named answered ${addressee.name}`;
      return [{ turn: turn.number, failure }];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Following movement

/**
 * When the player goes to a named place, the reply's scene is there: the prose names the place
 * beyond restating the move, and no scene heading puts the scene somewhere else.
 */
export function followsMovement(session: PlayedSession): Rate {
  return rate(
    answered(session).flatMap((turn) => {
      if (turn.step.kind !== "move") return [];
      const to = turn.step.to;
      const destination = session.places.find((place) => place.name === to);
      if (!destination) throw new Error(`The script goes to ${to}, which is not among its places.`);
      const { prose } = replyParts(turn.reply);
      const elsewhere = emphasisedLines(prose)
        .filter((heading) => !names(heading, destination))
        .flatMap((heading) => mentions(heading, session.places))[0];
      const reached = storyParagraphs(prose, turn.message).some((paragraph) => names(paragraph, destination));
      const failure = elsewhere
        ? `the scene heading puts it at ${elsewhere.who.name}`
        : reached
          ? undefined
          : `the reply does not reach ${destination.name} (beyond restating the move)`;
      return [{ turn: turn.number, failure }];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Memory

/** When the player asks about a pinned fact or a person named earlier, the reply's prose brings it back. */
export function memoryRecall(session: PlayedSession): Rate {
  return rate(
    answered(session).flatMap((turn) => {
      if (turn.step.kind !== "recall") return [];
      const prose = normalized(replyParts(turn.reply).prose);
      const expected = turn.step.expect;
      const recalled = expected.some((phrase) => ` ${prose} `.includes(` ${normalized(phrase)} `));
      return [{ turn: turn.number, failure: recalled ? undefined : `none of ${expected.map((phrase) => `"${phrase}"`).join(", ")} came back` }];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// State and prose

/** "Treasury" is "Private Treasury", "Prestige" is "House Prestige": a label names a stat when one's words end or begin the other's. */
function sameStatName(stat: string, label: string) {
  const [a, b] = [normalized(stat), normalized(label)];
  if (!a || !b) return false;
  return a === b || ` ${a} `.includes(` ${b} `) || ` ${b} `.includes(` ${a} `);
}

function shownValue(value: StatValue | undefined) {
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/**
 * Where a status line and the stored state disagree, stat by stat; undefined when the line shows
 * none of the game's stats. A number stat is matched by its label; a text stat by its label
 * ("Root: Poor") or, unlabelled, by its value's first word ("Qi Condensation 2nd Layer (14%)").
 */
export function statusDisagreements(line: string, stats: readonly TrackedStat[], state: StoryState): string[] | undefined {
  const items = statusItems(line);
  let matched = 0;
  const disagreements: string[] = [];
  for (const stat of stats) {
    const value = state[stat.name];
    if (stat.kind === "number") {
      const item = items.find((candidate) => candidate.number !== undefined && sameStatName(stat.name, candidate.label));
      if (!item) continue;
      matched += 1;
      if (item.number !== value) disagreements.push(`${stat.name}: the prose says ${item.number}, the State panel ${shownValue(value)}`);
    } else if (stat.kind === "text") {
      const stored = normalized(shownValue(value));
      const item =
        items.find((candidate) => candidate.number === undefined && sameStatName(stat.name, candidate.label)) ??
        items.find((candidate) => candidate.label === "" && words(candidate.text)[0] === stored.split(" ")[0]);
      if (!item) continue;
      matched += 1;
      if (normalized(item.text) !== stored)
        disagreements.push(`${stat.name}: the prose says "${item.text}", the State panel "${shownValue(value)}"`);
    }
  }
  return matched === 0 ? undefined : disagreements;
}

/** The State panel (the state the server stored and returns) equals the reply's status line, where it has one. */
export function stateMatchesProse(session: PlayedSession): Rate {
  return rate(
    answered(session).flatMap((turn) => {
      const line = statusLines(turn.reply).at(-1);
      if (line === undefined || !turn.state) return [];
      const disagreements = statusDisagreements(line, session.stats, turn.state);
      if (disagreements === undefined) return [];
      return [{ turn: turn.number, failure: disagreements.length > 0 ? disagreements.join("; ") : undefined }];
    }),
  );
}

/**
 * The story's clock holds together: within a reply, its scene heading and status line name the
 * same day (and week), and no reply goes back to an earlier day or week than the one before.
 */
export function clockConsistency(session: PlayedSession): Rate {
  const last: Record<"day" | "week", number | undefined> = { day: undefined, week: undefined };
  return rate(
    answered(session).flatMap((turn) => {
      const { prose } = replyParts(turn.reply);
      const lines = [...emphasisedLines(prose), ...statusLines(turn.reply)].join("\n");
      const problems: string[] = [];
      let dated = false;
      for (const unit of ["day", "week"] as const) {
        const values = [...lines.matchAll(new RegExp(`\\b${unit}\\s+(\\d+)\\b`, "gi"))].map((match) => Number(match[1]));
        if (values.length === 0) continue;
        dated = true;
        const distinct = [...new Set(values)];
        if (distinct.length > 1) problems.push(`${distinct.map((value) => `${unit} ${value}`).join(" and ")} in one reply`);
        const latest = Math.max(...values);
        const previous = last[unit];
        if (previous !== undefined && Math.min(...values) < previous) problems.push(`${unit} ${Math.min(...values)} after ${unit} ${previous}`);
        last[unit] = latest;
      }
      return dated ? [{ turn: turn.number, failure: problems.length > 0 ? problems.join("; ") : undefined }] : [];
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Agency

const SPEECH_VERBS =
  "say|says|said|ask|asks|asked|reply|replies|replied|answer|answers|answered|whisper|whispered|murmur|murmured|shout|shouted|declare|declared|announce|announced|insist|insisted|add|added|tell (?:\\p{L}+ )?|told (?:\\p{L}+ )?";
/** “…,” you say — or — you say, “…”; the speech is the first group. */
const PLAYER_SPEECH = [
  new RegExp(`[“"]([^”"]+)[”"],?\\s+you\\s+(?:${SPEECH_VERBS})`, "giu"),
  new RegExp(`\\byou\\s+(?:${SPEECH_VERBS})[^“".!?]{0,40}?[,:]?\\s*[“"]([^”"]+)[”"]`, "giu"),
];
/** The player deciding, promising or falling in love, narrated as done — not offered ("if you decide", "you may accept"). */
const PLAYER_DECISION =
  /(?<!\b(?:if|unless|whether|once|until|when|before|after|can|could|may|might|will|would|should|must|to|do|did|let|perhaps)\s)\byou\s+(decide[sd]?|chose|choose|resolve[sd]?|agree[sd]?|refuse[sd]?|accept(?:ed|s)?|decline[sd]?|make up your mind|made up your mind|promise[sd]?|swear|swore|vow(?:ed|s)?|fall in love|fell in love)\b/iu;
const PLAYER_FEELING =
  /\byou\s+(?:feel|felt)\s+(?:a\s+(?:surge|pang|rush|wave|flush|stab|flash)\s+of\s+\p{L}+|(?:so\s+|suddenly\s+)?(?:angry|afraid|furious|relieved|guilty|ashamed|jealous|betrayed|happy|sad|hopeful|grateful|proud|humiliated|terrified|elated)\b)/iu;

/** The stem a player would type for a decision the reply narrates: "agreed" → "agree". */
function decisionStem(verb: string) {
  return words(verb)[0]?.replace(/(?:ed|d|s)$/, "") ?? verb;
}

/**
 * What a reply says or decides for the player: speech put in the player's mouth that they did not
 * type, and decisions, promises or feelings they did not state. What characters say is theirs:
 * "“You agreed to this,” he says" is not the narrator deciding.
 */
export function agencyViolations(prose: string, message: string): string[] {
  const typed = normalized(message);
  const violations: string[] = [];
  const spoken = speeches(prose);
  const insideSpeech = (position: number) => spoken.some((speech) => position > speech.start && position < speech.end);
  for (const [index, pattern] of PLAYER_SPEECH.entries()) {
    for (const match of prose.matchAll(pattern)) {
      // Where the narrator's "you" is: after the quote (“…,” you say), or where the match starts.
      const you = index === 0 ? match.index + match[0].search(/[”"],?\s+you\b/iu) + 1 : match.index;
      const speech = normalized(match[1] ?? "");
      if (speech && !insideSpeech(you) && !typed.includes(speech)) violations.push(`speaks for the player: “${(match[1] ?? "").trim()}”`);
    }
  }
  const narration = prose.replace(/“[^“”]*”|"[^"]*"/g, "…");
  for (const sentence of sentences(narration)) {
    if (sentence.endsWith("?") || isEcho(sentence, message)) continue;
    const decision = PLAYER_DECISION.exec(sentence);
    if (decision && !typed.includes(decisionStem(decision[1] ?? ""))) violations.push(`decides for the player: "${sentence}"`);
    if (PLAYER_FEELING.test(sentence)) violations.push(`declares the player's feelings: "${sentence}"`);
  }
  return violations;
}

/** Replies that neither speak nor decide for the player. */
export function agency(session: PlayedSession): Rate {
  return rate(
    answered(session).map((turn) => {
      const violations = agencyViolations(replyParts(turn.reply).prose, turn.message);
      return { turn: turn.number, failure: violations.length > 0 ? violations.join("; ") : undefined };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Choices

/** What every seeded game's prompt asks: "End every reply with 3 to 6 numbered choices". */
export const CHOICES_PER_REPLY = { min: 3, max: 6 } as const;
/** A choice offered in one of this many replies before is a repeat. */
export const RECENT_REPLIES = 5;

/** Replies that end with 3 to 6 numbered choices, all different, none offered in the five replies before. */
export function choicesWellFormed(session: PlayedSession): Rate {
  const recent: string[][] = [];
  return rate(
    answered(session).map((turn) => {
      const choices = replyParts(turn.reply).choices;
      const keys = choices.map(normalized);
      const problems: string[] = [];
      if (choices.length < CHOICES_PER_REPLY.min || choices.length > CHOICES_PER_REPLY.max) problems.push(`${choices.length} numbered choices`);
      const twice = keys.filter((key, index) => keys.indexOf(key) !== index);
      if (twice.length > 0) problems.push(`the same choice twice: "${twice[0]}"`);
      const offered = new Set(recent.flat());
      const again = choices.filter((_choice, index) => offered.has(keys[index] ?? ""));
      if (again.length > 0) problems.push(`offered again from a recent reply: "${again[0]}"`);
      recent.push(keys);
      if (recent.length > RECENT_REPLIES) recent.shift();
      return { turn: turn.number, failure: problems.length > 0 ? problems.join("; ") : undefined };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Broken text

/** Clauses of at least this many words written twice in one reply are a doubled clause. */
export const DOUBLED_CLAUSE_WORDS = 4;

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * "their" for someone the game calls she or he, in the shapes a template leaves it: "Madam Lin
 * spreads their hands", "ask Wen Jun what they know", "Rong Yuan knows more than they let on".
 */
function wrongPronouns(text: string, message: string, cast: readonly Character[]): string[] {
  const typed = normalized(message);
  const found: string[] = [];
  // "Mistress Perrine lowers their" is found again as "Perrine lowers their": each place in the text counts once.
  const places: { start: number; end: number }[] = [];
  for (const character of cast) {
    if (!character.pronoun) continue;
    for (const form of [character.name, ...character.aliases].filter((alias) => /^\p{Lu}/u.test(alias))) {
      const name = escapeRegExp(form);
      const shapes = [
        `${name} \\p{L}+(?:s|ed) (?:their|them|themselves)\\b`,
        `${name} (?:what|how|whether|why|where|if|that|when) they\\b`,
        `${name} \\p{L}+s (?:more |less |word )?(?:than|that) they\\b`,
        `\\b(?:thank|ask|tell|invite|help|let|see|watch) ${name} (?:for|about|to|with) their\\b`,
      ];
      for (const shape of shapes) {
        for (const match of text.matchAll(new RegExp(shape, "giu"))) {
          const [start, end] = [match.index, match.index + match[0].length];
          if (typed.includes(normalized(match[0])) || places.some((place) => start < place.end && end > place.start)) continue;
          places.push({ start, end });
          found.push(`"their" for ${character.name} (${character.pronoun}): "${match[0]}"`);
        }
      }
    }
  }
  return found;
}

/** What is broken in a reply's text: unbalanced or empty quotes, a clause written twice, "their" for a she or a he. */
export function brokenTextProblems(reply: string, message: string, cast: readonly Character[]): string[] {
  const { prose, choices } = replyParts(reply);
  const problems: string[] = [];
  const opening = (prose.match(/“/g) ?? []).length;
  const closing = (prose.match(/”/g) ?? []).length;
  if (opening !== closing) problems.push(`unbalanced quotes (${opening} “ and ${closing} ”)`);
  const straight = prose.split('"');
  if (straight.length % 2 === 0) problems.push('an unclosed " quote');
  const quoted = [...[...prose.matchAll(/“([^“”]*)”/g)].map((match) => match[1] ?? ""), ...straight.filter((_part, index) => index % 2 === 1)];
  if (quoted.some((speech) => !/[\p{L}\p{N}]/u.test(speech)) || /(?:^|\s)['‘]\s*["“”]/.test(prose)) problems.push("empty or stray speech marks");
  // A scene heading ("*Day 5 — the Hall of Hearths*") may name what the prose names again.
  const headings = new Set(emphasisedLines(prose));
  const clauses = prose
    .split("\n")
    .filter((line) => !headings.has(line.trim()))
    .join("\n")
    .split(/[.,;:!?…—–\n]+/)
    .map(normalized)
    .filter((clause) => clause.split(" ").length >= DOUBLED_CLAUSE_WORDS);
  const doubled = clauses.find((clause, index) => clauses.indexOf(clause) !== index);
  if (doubled) problems.push(`a clause written twice: "${doubled}"`);
  problems.push(...wrongPronouns([prose, ...choices].join("\n"), message, cast));
  return problems;
}

export function brokenText(session: PlayedSession): Rate {
  return rate(
    answered(session).map((turn) => {
      const problems = brokenTextProblems(turn.reply, turn.message, session.cast);
      return { turn: turn.number, failure: problems.length > 0 ? problems.join("; ") : undefined };
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Length, time, failures

export function distribution(values: readonly number[]): Distribution {
  return { median: percentile(values, 0.5), p90: percentile(values, 0.9), count: values.length };
}

/** Words in each reply as the player reads it (prose, status line and choices). */
export function replyWords(session: PlayedSession): number[] {
  return answered(session).map((turn) => words(turn.reply).length);
}

export function timings(session: PlayedSession): { firstTokenMs: number[]; replyMs: number[] } {
  const turns = answered(session);
  return {
    firstTokenMs: turns.flatMap((turn) => (turn.firstTokenMs === undefined ? [] : [turn.firstTokenMs])),
    replyMs: turns.flatMap((turn) => (turn.replyMs === undefined ? [] : [turn.replyMs])),
  };
}

/** Turns and story controls that got no reply: a refusal, or a stream that ended in an error. */
export function failedTurns(session: PlayedSession): Rate {
  return rate(
    session.turns.flatMap((turn) => [
      { turn: turn.number, failure: turn.error },
      ...(turn.controls ?? []).map((control) => ({ turn: turn.number, failure: control.error && `${control.kind}: ${control.error}` })),
    ]),
  );
}
