import type { StatValue, StoryState, TrackedStat } from "#app/lib/tracked-stats.ts";
import type { Character } from "./session-script.ts";
import { answered, rate, type Rate, type Distribution } from "./rates.ts";
import { emphasisedLines, isEcho, normalized, percentile, replyParts, sentences, speeches, statusItems, statusLines, words } from "./text.ts";
import type { PlayedSession } from "./transcript.ts";

/**
 * The scorecard's metrics of how a reply is told (issue 33): state agreeing with the prose, a
 * consistent clock, agency, choices, intact text, length, time and failed turns. Pure functions of
 * played sessions, like metrics.ts.
 */

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
