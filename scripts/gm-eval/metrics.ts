import type { Character } from "./session-script.ts";
import { answered, rate, type Rate } from "./rates.ts";
import { emphasisedLines, isEcho, mentions, names, ngrams, normalized, replyParts, sentences, speeches, words, type Mention } from "./text.ts";
import type { PlayedSession } from "./transcript.ts";

/**
 * The scorecard's metrics (issue 33) of what replies say: repetition, stock phrases, the character
 * spoken to answering, movement followed, memory recalled (form-metrics.ts has those of how they are
 * told). Each is computed from played sessions, never judged by a person, like EQ-Bench's long-form
 * and RPGBench's objective checks: a pure function of transcripts whose `Rate` says how many of the
 * things it checked passed (or, for repetition and stock phrases, how many were repeated), and
 * which ones did not, by turn.
 */

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
