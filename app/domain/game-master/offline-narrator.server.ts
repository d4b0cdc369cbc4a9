import { bestMention, declaredName, mentioned, readAction, type PlayerAction } from "./offline-action.server.ts";
import { ADDRESS_LINES, clockAt, readContinuity, sceneLine, type Continuity } from "./offline-continuity.server.ts";
import { offlineStateBlock } from "./offline-state.server.ts";
import type { TrackedState } from "./story-brief.server.ts";
import {
  ASK_CHOICES,
  ASK_TROUBLE_CHOICES,
  CHALLENGE_CHOICES,
  FRAMES,
  GROUP_CHOICES,
  LOOK_CHOICES,
  NAME_INVITATION,
  OPENING_HOOKS,
  PLACE_CHOICES,
  PROMPT_TAILS,
  STEADY_CHOICES,
  TALK_CHOICES,
  type Frame,
} from "./offline-phrases.server.ts";
import {
  midSentence,
  escapeRegExp,
  laterName,
  nameForms,
  parseStatusLine,
  seededRandom,
  shortName,
  splitSentences,
  statement,
  type Entity,
  type Stat,
  type StatusLine,
  type World,
} from "./offline-world.server.ts";

const TALK_FRAMES = { neutral: FRAMES.talkNeutral, kind: FRAMES.talkKind, harsh: FRAMES.talkHarsh };

/**
 * The offline storyteller's narration: deterministic (the same story and action always give the
 * same reply), built from the game's own world, answering what the player just did or asked,
 * calling the player by their role or the name they gave, never the same paragraph twice in 50
 * turns, and ending with numbered choices.
 *
 * Every paragraph is a sentence of the world (what the content says about a person, a place, a
 * trouble) framed by two phrases (offline-phrases.server.ts): the pair is picked by the story's
 * turn, so the same framing of the same sentence comes back only after 56 turns. The turn is read
 * from the scene line of the latest reply (offline-continuity.server.ts), which is why this holds
 * even when older turns have left the model's context.
 */
export interface TurnInput {
  world: World;
  /** The player's new message. */
  action: string;
  /** The Game Master's earlier replies in this story, oldest first (as far as the context holds them). */
  previousReplies: string[];
  /** The player's earlier messages, oldest first, each before the reply of the same index. */
  previousActions?: string[];
  /** Another answer to the same turn (a retried reply): 0 or absent for the first. */
  variant?: number;
  /** More of the latest reply (Continue): prose only, without the scene line, the status, the prompt or the choices. */
  extending?: boolean;
  /** The game's tracked stats, when it has any: the reply ends with their state block. */
  trackedState?: TrackedState;
}

// ---------------------------------------------------------------------------------------------
// Deterministic choice

function hash(text: string) {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

type Random = () => number;

function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError("pick() needs at least one item.");
  return item;
}

/** A seeded shuffle. */
function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const keyed = items.map((item) => ({ item, key: random() }));
  return keyed.sort((a, b) => a.key - b.key).map(({ item }) => item);
}

/** The n-th item of a list, counting round. */
function nth<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[((index % items.length) + items.length) % items.length];
}

/**
 * `{key}` → the value, `{Key}` → capitalised, `{, key}` → ", value" (nothing when the value is
 * empty), `{key, }` → "value, ". A key the template does not get is a bug, not a blank.
 */
export function fill(template: string, values: Record<string, string | undefined>) {
  return template.replace(/\{(, )?(\w+)(, )?\}/g, (_match, before: string | undefined, key: string, after: string | undefined) => {
    const lower = key.charAt(0).toLowerCase() + key.slice(1);
    if (!(lower in values)) throw new Error(`The template "${template}" needs {${key}}.`);
    const value = values[lower] ?? "";
    if (!value) return "";
    const shown = key === lower ? value : capitalise(value);
    return `${before ?? ""}${shown}${after ?? ""}`;
  });
}

function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Marquis Mu Tieyan" (first mention) and the like: the name a narrator uses for a person. */
function called(person: Entity) {
  return shortName(person.name);
}

// ---------------------------------------------------------------------------------------------
// Stats

function formatStat(stat: Stat, change: number) {
  if (stat.kind === "fixed") return stat.label;
  const amount = `${stat.prefix}${stat.value.toLocaleString("en-US")}${stat.suffix}`;
  if (change === 0 || stat.kind === "time") return `${stat.label} ${amount}`;
  const sign = change > 0 ? "+" : "−";
  return `${stat.label} ${amount} (${sign}${Math.abs(change).toLocaleString("en-US")})`;
}

function renderStatus(status: StatusLine, changes: number[]) {
  const text = status.stats.map((stat, index) => formatStat(stat, changes[index] ?? 0)).join(" · ");
  return `${status.emphasis}${text}${status.emphasis}`;
}

/** Moves one or two stats the way the action leans: kindness builds standing, force costs it. */
function moveStats(status: StatusLine, action: PlayerAction, random: Random): { status: StatusLine; changes: number[] } {
  const changes = status.stats.map(() => 0);
  const scores = status.stats.flatMap((stat, index) => (stat.kind === "score" ? [index] : []));
  const [first, second] = shuffled(random, scores);
  const step = () => 1 + Math.floor(random() * 3);

  if (first !== undefined) changes[first] = action.tone === "harsh" ? step() + 1 : action.tone === "kind" ? step() : random() < 0.5 ? 1 : -1;
  if (second !== undefined && action.tone === "harsh") changes[second] = -(step() + 1);
  else if (second !== undefined && random() < 0.35) changes[second] = random() < 0.5 ? 1 : -1;

  status.stats.forEach((stat, index) => {
    if (stat.kind !== "money") return;
    const swing = Math.max(10, Math.round((stat.value * (0.02 + random() * 0.06)) / 10) * 10);
    if (action.money === "spend") changes[index] = -swing;
    else if (action.money === "earn") changes[index] = swing;
  });

  const stats = status.stats.map((stat, index) => {
    const limit = stat.kind === "score" ? 100 : Number.MAX_SAFE_INTEGER;
    const value = Math.min(limit, Math.max(0, stat.value + (changes[index] ?? 0)));
    changes[index] = value - stat.value;
    return { ...stat, value };
  });
  return { status: { ...status, stats }, changes };
}

/** The stats as the last reply left them (or the prompt's starting line), with the clock's days and weeks. */
function currentStatus(world: World, previousReplies: string[], turn: number) {
  const start = world.status;
  if (!start) return undefined;
  let status = start;
  for (const reply of [...previousReplies].reverse()) {
    const line = parseStatusLine(reply);
    if (!line) continue;
    const labels = start.stats.map((stat) => stat.label);
    if (line.stats.length === labels.length && line.stats.every((stat, index) => stat.label === labels[index])) {
      status = { ...line, emphasis: start.emphasis };
      break;
    }
  }
  const { day } = clockAt(world, turn);
  const firstDay = clockAt(world, 0).day;
  const stats = status.stats.map((stat, index) => {
    if (stat.kind !== "time") return stat;
    const from = start.stats[index]?.value ?? stat.value;
    const days = day - firstDay;
    const value = /^week$/i.test(stat.label) ? from + Math.floor(days / 7) : /^day$/i.test(stat.label) ? from + days : stat.value;
    return { ...stat, value };
  });
  return { ...status, stats };
}

// ---------------------------------------------------------------------------------------------
// The teller: one reply's choices, made from the turn and the story

interface Address {
  /** How the world's people address the player in speech ("Your Majesty", "Lin Mei", or nothing). */
  spoken: string;
  /** How the narrator's closing question addresses the player ("Lin Mei", "Your Majesty", "disciple"). */
  narrator: string;
}

class Teller {
  readonly world: World;
  readonly story: Continuity;
  readonly address: Address;
  readonly variant: number;
  readonly random: Random;
  private readonly written = new Set<string>();

  constructor(world: World, story: Continuity, address: Address, variant: number, seed: string) {
    this.world = world;
    this.story = story;
    this.address = address;
    this.variant = variant;
    this.random = seededRandom(hash(seed));
  }

  /**
   * One paragraph framed by an opener and a closer: the pair is the turn's (offset by what the
   * paragraph is about), so 56 turns pass before the same framing of the same content returns.
   */
  frame(key: string, { openers, closers }: Frame, render: (opener: string, closer: string) => string) {
    const period = openers.length * closers.length;
    const salt = hash(key) + this.variant * 23;
    let paragraph = "";
    for (let attempt = 0; attempt < period; attempt += 1) {
      const index = (((this.story.turn + salt + attempt) % period) + period) % period;
      paragraph = render(openers[index % openers.length] ?? "", closers[Math.floor(index / openers.length)] ?? "");
      if (this.isFresh(paragraph)) break;
    }
    this.written.add(paragraph);
    return paragraph;
  }

  isFresh(paragraph: string) {
    return !this.story.seen.has(paragraph) && !this.written.has(paragraph);
  }

  /**
   * What the world says about something, freshest first: a sentence no visible reply has used yet.
   * Who or what it is comes first, unless `vivid` asks for what the content tells of them first.
   */
  knowledgeAbout(
    entity: Entity | undefined,
    phrase: string | undefined,
    { limit = 2, vivid = false, freshOnly = false }: { limit?: number; vivid?: boolean; freshOnly?: boolean } = {},
  ): string[] {
    const own = entity
      ? statement(entity, { person: this.world.people.includes(entity), glossary: this.world.challenges.includes(entity) })
      : undefined;
    const about = entity ? sentencesAbout(this.world, entity) : phrase ? searchKnowledge(this.world.knowledge, phrase) : [];
    const ordered = vivid ? [...about, ...(own ? [own] : [])] : [...(own ? [own] : []), ...about];
    const all = [...new Set(ordered)].filter((sentence) => !/\?$/.test(sentence));
    const fresh = all.filter((sentence) => !this.said(sentence));
    if (freshOnly) return fresh.slice(0, limit);
    // Fresh sentences first; if there are too few, the rest come round in turn.
    const stale = all.filter((sentence) => !fresh.includes(sentence));
    const start = this.story.turn % Math.max(1, stale.length);
    return [...fresh, ...stale.slice(start), ...stale.slice(0, start)].slice(0, limit);
  }

  /** Whether this reply or the one before it already says this. */
  recently(text: string) {
    return this.story.lastReply.includes(text) || [...this.written].some((paragraph) => paragraph.includes(text));
  }

  /** Whether a visible reply, or this one, already says this. */
  said(text: string) {
    return [...this.story.seen, ...this.written].some((paragraph) => paragraph.includes(text));
  }

  /** A person's name, or a shorter reference when `before` (the paragraph so far) already names them. */
  who(person: Entity, before = "") {
    const name = called(person);
    if (!before.includes(name)) return name;
    return laterName(person, this.world.knowledge.join(" "));
  }

  values(extra: Record<string, string | undefined>) {
    return { you: this.address.spoken, ...extra };
  }
}

/**
 * The world's sentences naming an entity, those about it (naming it early) first. A person is
 * named by their name, or by one word of it that no one else shares ("Deshun", not "Rong").
 */
const sentencesCache = new WeakMap<World, Map<Entity, string[]>>();

function sentencesAbout(world: World, entity: Entity): string[] {
  let cache = sentencesCache.get(world);
  if (!cache) {
    cache = new Map<Entity, string[]>();
    sentencesCache.set(world, cache);
  }
  let found = cache.get(entity);
  if (!found) {
    found = findSentencesAbout(world, entity);
    cache.set(entity, found);
  }
  return found;
}

function findSentencesAbout(world: World, entity: Entity): string[] {
  const people = world.people.includes(entity);
  const others = world.people
    .filter((person) => person !== entity)
    .flatMap((person) => nameForms(person.name, { person: true }).map(({ form }) => form));
  const forms = nameForms(entity.name, { person: people }).filter(
    ({ form, weight }) => weight >= 3 || (form.length >= 4 && !others.includes(form)),
  );
  return world.knowledge
    .flatMap((sentence) => {
      if (!standsAlone(sentence)) return [];
      if (!forms.some(({ form }) => new RegExp(`(?<![\\p{L}])${escapeRegExp(form)}(?![\\p{L}])`, "u").test(sentence))) return [];
      const at = Math.min(...forms.map(({ form }) => sentence.indexOf(form)).filter((index) => index >= 0));
      // About it first: sentences that open with its name, then those that name it early.
      const rank = at <= 4 ? 0 : at <= 40 ? 1 : 2;
      return [{ sentence, rank }];
    })
    .sort((a, b) => a.rank - b.rank)
    .map(({ sentence }) => sentence);
}

/** A sentence that makes sense on its own, not one that leans on the sentence before it ("It names…", "His son…"). */
function standsAlone(sentence: string) {
  if (/^(It|Its|He|His|Him|She|Her|They|Their|This|These|That|Those|Both|Then|There)\b/.test(sentence)) return false;
  // "On the seventh, …, he dictated an edict": a "he" whose name is in another sentence.
  if (/^(On|By|At|In|When|After|Before|Since|Now|Later|Once|Within)\b/.test(sentence) && /\b(he|she|they)\b/.test(sentence)) return false;
  // "How you spend his childhood decides…": a "his" with no one named to be his.
  if (/\b(he|she|his|her|him|they|their)\b/.test(sentence) && !/\s[A-Z]/.test(sentence)) return false;
  // "Penny calls it the Transfer Student Curse": "it" is whatever the sentence before was about.
  const opening = sentence
    .replace(/[“"][^”"]*[”"]/g, "")
    .split(/\s+/)
    .slice(0, 6);
  return !opening.some((word) => /^(it|this|them|these|those)[,.]?$/.test(word));
}

/** The world's sentences about words the player used ("the Jade Seal" → sentences naming it). */
function searchKnowledge(knowledge: string[], phrase: string): string[] {
  const clean = phrase
    .replace(/^(the|a|an|my|your|this|that)\s+/i, "")
    .replace(/[^\p{L}\p{N}' -]/gu, "")
    .trim();
  if (clean.length < 3) return [];
  const exact = knowledge.filter((sentence) => new RegExp(`\\b${clean.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i").test(sentence));
  if (exact.length > 0) return exact;
  const STOP = new Set(
    "about what when where which while with would could should their there these those them they this that have from into your know really".split(
      " ",
    ),
  );
  const words = clean
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word.length >= 4 && !STOP.has(word));
  if (words.length === 0) return [];
  return knowledge
    .map((sentence) => ({ sentence, score: words.filter((word) => sentence.toLowerCase().includes(word)).length }))
    .filter(({ score }) => score >= Math.min(2, words.length))
    .sort((a, b) => b.score - a.score)
    .map(({ sentence }) => sentence);
}

/** A sentence of the world spoken aloud: "The Cold Palace is a quiet courtyard…". */
function spoken(sentences: string[]) {
  return sentences.map((sentence) => sentence.replace(/"([^"]*)"/g, "‘$1’").replace(/“([^”]*)”/g, "‘$1’")).join(" ");
}

const CONFIDANT = /\b(lady-in-waiting|roommate|dormitory friend|steward|secretary|assistant|mentor|confidant|maid)\b/i;

/** Who is at the player's side to answer, most trusted first: a confidant ("your lady-in-waiting"), family, then anyone. */
function confidants(world: World): Entity[] {
  const yours = world.people.filter((person) => /^your\b/i.test(person.detail));
  const close = world.people.filter((person) => CONFIDANT.test(person.name) || CONFIDANT.test(person.detail));
  return [...new Set([...yours, ...close, ...world.people])];
}

/** The person who is with the player and answers questions (not the one the question is about). */
function confidant(world: World, not?: Entity): Entity | undefined {
  return confidants(world).find((person) => person !== not);
}

const peopleAtCache = new WeakMap<World, Map<string, Entity[]>>();

/** The people the world places somewhere: named in what it says about the place. */
function peopleAt(world: World, place: Entity | undefined): Entity[] {
  if (!place) return [];
  let cache = peopleAtCache.get(world);
  if (!cache) {
    cache = new Map<string, Entity[]>();
    peopleAtCache.set(world, cache);
  }
  let found = cache.get(place.name);
  if (!found) {
    const text = [place.detail, ...world.knowledge.filter((sentence) => mentioned([place], sentence).length > 0)].join(" ");
    found = mentioned(world.people, text, { people: true });
    cache.set(place.name, found);
  }
  return found;
}

/**
 * Who can plausibly turn up where the player is: those the world places there, the player's
 * confidants, and anyone the world ties to no place in particular (not the Khagan beyond the pass).
 */
function peopleAround(world: World, place: Entity | undefined): Entity[] {
  const elsewhere = new Set(world.places.filter((other) => other.name !== place?.name).flatMap((other) => peopleAt(world, other)));
  const here = peopleAt(world, place);
  const around = world.people.filter((person) => here.includes(person) || !elsewhere.has(person) || person === confidant(world));
  return around.length > 0 ? around : world.people;
}

/** "Border alarms" → "the border alarms"; a proper name keeps its capitals ("the Blood Lotus Sect"). */
function challengePhrase(challenge: Entity) {
  if (/^the\b/i.test(challenge.name)) return midSentence(challenge.name);
  const proper = challenge.name
    .split(/\s+/)
    .slice(1)
    .some((word) => /^[A-Z]/.test(word));
  return `the ${proper ? challenge.name : challenge.name.toLowerCase()}`;
}

// ---------------------------------------------------------------------------------------------
// The paragraphs

function answerParagraph(teller: Teller, action: PlayerAction, subjectEntity: Entity | undefined, speaker: Entity | undefined) {
  const subject = subjectEntity ? called(subjectEntity) : (action.subject ?? "");
  const knowledge = teller.knowledgeAbout(subjectEntity, action.subject);
  const other = teller.world.people.find((person) => person !== speaker && person !== subjectEntity);
  const lead = action.told ? `${action.told} ` : "";
  if (!speaker) {
    // A world without people: the answer comes from what the player sees and hears.
    if (knowledge.length === 0) {
      return teller.frame(`nobody\n${subject}`, FRAMES.nobody, (opener, closer) =>
        [lead + fill(opener, { subject: subject || "that" }), closer].join(" ").trim(),
      );
    }
    return teller.frame(`recall\n${subject}`, FRAMES.recall, (opener, closer) =>
      [lead + fill(opener, { subject: subject || "it" }), ...knowledge, closer].join(" "),
    );
  }
  const who = teller.who(speaker, lead);
  if (knowledge.length === 0) {
    return teller.frame(`unknown\n${subject}\n${who}`, FRAMES.unknown, (opener, closer) =>
      [
        lead + fill(opener, teller.values({ who, subject: capitalise(subject.replace(/^(the|a|an)\s+/i, (article) => article.toLowerCase())) })),
        fill(closer, { other: other ? called(other) : "someone older than me" }),
      ].join(" "),
    );
  }
  const said = spoken(knowledge);
  const echo = subject && !said.toLowerCase().startsWith(subject.toLowerCase()) ? `${capitalise(subject)}{, you}? ` : "";
  return teller.frame(`answer\n${subject}\n${who}\n${said}`, FRAMES.answer, (opener, closer) =>
    [lead + fill(opener, { who }), `“${fill(echo, teller.values({}))}${said} ${closer}”`].join(" "),
  );
}

/** Who the player is, as the opening said it, and the name they gave. */
function selfParagraph(teller: Teller, speaker: Entity | undefined, name: string | undefined) {
  const opening = teller.world.opening ?? "";
  const youAre = splitSentences(opening).find((sentence) => /\byou are\b/i.test(sentence));
  const role = teller.world.player.role;
  const said = [name ? `Your name is ${name}.` : "", youAre ?? (role ? `You are ${role}.` : "")].filter(Boolean).join(" ");
  if (!said) return undefined;
  const quoted = spoken([said]);
  if (!speaker)
    return teller.frame(`self\n${said}`, FRAMES.recall, (opener, closer) => [fill(opener, { subject: "yourself" }), said, closer].join(" "));
  return teller.frame(`self\n${called(speaker)}\n${said}`, FRAMES.answer, (opener, closer) =>
    [fill(opener, { who: called(speaker) }), `“${quoted} ${closer}”`].join(" "),
  );
}

function recallParagraph(teller: Teller, action: PlayerAction, subjectEntity: Entity | undefined) {
  const subject = subjectEntity ? called(subjectEntity) : (action.subject ?? "");
  const knowledge = teller.knowledgeAbout(subjectEntity, action.subject);
  if (knowledge.length === 0) {
    const speaker = confidant(teller.world);
    return answerParagraph(teller, { ...action, kind: "question" }, subjectEntity, speaker);
  }
  return teller.frame(`recall\n${subject}`, FRAMES.recall, (opener, closer) =>
    [fill(opener, { subject: midSentence(subject) }), ...knowledge, closer].join(" "),
  );
}

/** What a confidant would tell the player to see to first: a trouble, else a power, else a place worth knowing. */
function pressingMatter(teller: Teller): Entity | undefined {
  const { world } = teller;
  const known = (entities: Entity[]) => entities.filter((entity) => teller.knowledgeAbout(entity, undefined, { limit: 1 }).length > 0);
  const candidates = [known(world.challenges), known(world.groups), known(world.places)].find((list) => list.length > 0) ?? [];
  return nth(candidates, teller.story.turn + teller.variant);
}

function adviceParagraph(teller: Teller, action: PlayerAction, speaker: Entity | undefined) {
  const matter = pressingMatter(teller);
  if (!speaker || !matter) return actParagraphs(teller, action)[0] ?? "";
  const who = called(speaker);
  const about = teller.knowledgeAbout(matter, undefined, { limit: 1 });
  const lead = action.told ? `${action.told} ` : "";
  return teller.frame(`advice\n${matter.name}\n${who}`, FRAMES.advice, (opener, closer) =>
    [lead + fill(opener, teller.values({ who, challenge: challengePhrase(matter) })), ...about, closer].join(" "),
  );
}

function talkParagraph(teller: Teller, action: PlayerAction, person: Entity) {
  const who = teller.who(person, action.told);
  const about = teller.knowledgeAbout(person, undefined, { limit: 1, vivid: true });
  return teller.frame(`talk\n${called(person)}\n${action.text}`, TALK_FRAMES[action.tone], (opener, line) =>
    [action.told ?? "", fill(opener, { who }), ...about, fill(line, teller.values({}))].filter(Boolean).join(" "),
  );
}

function arrivalParagraph(teller: Teller, action: PlayerAction, place: Entity) {
  const { watch } = clockAt(teller.world, teller.story.turn);
  const about = teller.knowledgeAbout(place, undefined, { limit: 1 });
  const present = peopleAt(teller.world, place);
  const person = nth(present.length > 0 ? present : peopleAround(teller.world, place), teller.story.turn);
  const aboutText = [action.told ?? "", ...about].join(" ");
  return teller.frame(`arrive\n${place.name}\n${action.text}`, FRAMES.arrival, (opener, presence) =>
    [
      action.told ?? "",
      fill(opener, { place: midSentence(place.name), watch }),
      ...about,
      person ? fill(presence, { who: teller.who(person, aboutText) }) : "",
    ]
      .filter(Boolean)
      .join(" "),
  );
}

function discoveryParagraph(teller: Teller, action: PlayerAction) {
  const target = action.person ?? action.place ?? action.group ?? action.challenge ?? teller.story.place;
  let about = teller.knowledgeAbout(target, undefined, { limit: 1, vivid: true, freshOnly: true });
  if (about.length === 0) {
    // Nothing new about what the player looks at: something else the world knows comes to light.
    const unseen = teller.world.knowledge.filter(
      (sentence) =>
        !teller.said(sentence) && standsAlone(sentence) && !/^You\b/.test(sentence) && !/^\w+(?: \w+)? (?:he|she|they|it)\b/.test(sentence),
    );
    const found = nth(unseen.length > 0 ? unseen : teller.world.knowledge, teller.story.turn + hash(action.text));
    about = found ? [found] : teller.knowledgeAbout(target, undefined, { limit: 1 });
  }
  return teller.frame(`discover\n${about.join(" ")}\n${action.text}`, FRAMES.discovery, (opener, closer) =>
    [action.told ?? "", opener, ...about, closer].filter(Boolean).join(" "),
  );
}

function restParagraph(teller: Teller, action: PlayerAction) {
  const { watch, nextWatch } = clockAt(teller.world, teller.story.turn);
  return teller.frame(`rest\n${action.text}`, FRAMES.rest, (opener, closer) =>
    [action.told ?? "", fill(opener, { watch }), fill(closer, { nextWatch })].filter(Boolean).join(" "),
  );
}

/** Something said or waited out, and how someone present takes it: `speech` is answered aloud. */
function reactionParagraph(teller: Teller, action: PlayerAction, key: "speech" | "wait") {
  const person = action.person ?? pickPerson(teller);
  const other = teller.world.people.find((candidate) => candidate !== person);
  if (!person) {
    return teller.frame(`${key}\n${action.text}`, key === "speech" ? FRAMES.speechAlone : FRAMES.waitAlone, (opener, outcome) =>
      [action.told ?? "", fill(opener, { who: "someone" }), outcome].filter(Boolean).join(" "),
    );
  }
  return teller.frame(`${key}\n${action.text}\n${person.name}`, key === "speech" ? FRAMES.speech : FRAMES.wait, (opener, closer) => {
    const first = fill(opener, { who: teller.who(person, action.told) });
    const before = `${action.told ?? ""} ${first}`;
    const second = fill(closer, teller.values({ who: teller.who(person, before), other: other ? called(other) : "the others" }));
    return [action.told ?? "", first, second].filter(Boolean).join(" ");
  });
}

function actParagraphs(teller: Teller, action: PlayerAction): string[] {
  const paragraphs: string[] = [];
  if (action.kind === "challenge" && action.challenge) {
    const about = teller.knowledgeAbout(action.challenge, undefined, { limit: 1 });
    const person = pickPerson(teller);
    const other = teller.world.people.find((candidate) => candidate !== person);
    paragraphs.push(
      teller.frame(`challenge\n${action.challenge.name}\n${action.text}`, FRAMES.act, (outcome, reaction) =>
        [
          action.told ?? "",
          ...about,
          outcome,
          person ? fill(reaction, teller.values({ who: called(person), other: other ? called(other) : "the others" })) : "",
        ]
          .filter(Boolean)
          .join(" "),
      ),
    );
    return paragraphs;
  }
  const person = action.person ?? pickPerson(teller);
  const other = teller.world.people.find((candidate) => candidate !== person);
  paragraphs.push(
    teller.frame(`act\n${action.text}\n${person?.name ?? ""}`, FRAMES.act, (outcome, reaction) =>
      [
        action.told ?? "",
        outcome,
        person ? fill(reaction, teller.values({ who: called(person), other: other ? called(other) : "the others" })) : "",
      ]
        .filter(Boolean)
        .join(" "),
    ),
  );
  return paragraphs;
}

function nameParagraph(teller: Teller, name: string) {
  const person = confidant(teller.world);
  const who = person ? called(person) : "The nearest listener";
  return teller.frame(`name\n${name}`, FRAMES.name, (opener, closer) => [fill(opener, { who, name }), closer].join(" "));
}

function pressureParagraph(teller: Teller, challenge: Entity) {
  const about = teller.knowledgeAbout(challenge, undefined, { limit: 1 });
  if (about.length === 0) return undefined;
  return teller.frame(`pressure\n${challenge.name}\n${about.join(" ")}`, FRAMES.pressure, (lead, closer) => [lead, ...about, closer].join(" "));
}

function aftermathParagraph(teller: Teller, key: string) {
  const place = nth(
    teller.world.places.filter((candidate) => candidate !== teller.story.place),
    teller.story.turn * 3 + hash(key),
  );
  const person = pickPerson(teller);
  if (!place || !person) return undefined;
  const { watch } = clockAt(teller.world, teller.story.turn);
  return teller.frame(`aftermath\n${key}\n${place.name}\n${person.name}`, FRAMES.aftermath, (scene, closer) =>
    [fill(scene, { place: midSentence(place.name), watch }), fill(closer, { who: called(person) })].join(" "),
  );
}

function pickPerson(teller: Teller): Entity | undefined {
  const present = peopleAt(teller.world, teller.story.place);
  const pool = present.length > 0 && teller.random() < 0.6 ? present : peopleAround(teller.world, teller.story.place);
  return pool.length > 0 ? pick(teller.random, pool) : undefined;
}

/** A trouble to bring up: one with something to say about it that neither this reply nor the last one said. */
function pickChallenge(teller: Teller): Entity | undefined {
  const challenges = teller.world.challenges.filter((challenge) => {
    const about = teller.knowledgeAbout(challenge, undefined, { limit: 1 })[0];
    return about !== undefined && !teller.recently(about);
  });
  return nth(challenges, teller.story.turn + teller.variant);
}

// ---------------------------------------------------------------------------------------------
// Choices

function choicesFor(teller: Teller, focus: Entity | undefined, previous: string[]): string[] {
  const { world, story } = teller;
  const turn = story.turn + teller.variant * 5;
  // People the player could reach from here; a topic may be anyone.
  const people = peopleAround(world, story.place);
  const first = focus ?? nth(people, turn);
  const second = nth(
    people.filter((person) => person !== first),
    turn * 2 + 1,
  );
  const topics = [
    ...world.challenges.map(challengePhrase),
    ...world.people.filter((person) => person !== second).map(called),
    ...world.places.map((place) => midSentence(place.name)),
  ];
  const otherPlaces = world.places.filter((place) => place.name !== story.place?.name);
  const slots: (() => string | undefined)[] = [
    () => (first ? fill(nth(TALK_CHOICES, turn) ?? "", { person: called(first) }) : undefined),
    () => {
      if (!second || topics.length === 0) return undefined;
      const topic = nth(topics, turn * 3) ?? "";
      const trouble = world.challenges.map(challengePhrase).includes(topic);
      return trouble && turn % 2 === 1
        ? fill(nth(ASK_TROUBLE_CHOICES, turn) ?? "", { person: called(second), trouble: topic })
        : fill(nth(ASK_CHOICES, turn) ?? "", { person: called(second), topic });
    },
    () => {
      const place = nth(otherPlaces, turn * 5 + 2);
      return place ? fill(nth(PLACE_CHOICES, turn + 1) ?? "", { place: midSentence(place.name) }) : undefined;
    },
    () => {
      const challenge = nth(world.challenges, turn + 1);
      const group = nth(world.groups, turn);
      if (challenge && (turn % 2 === 0 || !group))
        return fill(nth(CHALLENGE_CHOICES, Math.floor(turn / 2)) ?? "", { challenge: challengePhrase(challenge) });
      return group ? fill(nth(GROUP_CHOICES, Math.floor(turn / 2)) ?? "", { group: midSentence(group.name) }) : undefined;
    },
    () => (story.place && turn % 3 === 0 ? fill(nth(LOOK_CHOICES, turn) ?? "", { place: midSentence(story.place.name) }) : undefined),
    () => nth(STEADY_CHOICES, turn),
  ];
  let choices = [...new Set(slots.map((slot) => slot()).filter((choice): choice is string => choice !== undefined))];
  if (choices.length > 5) choices = choices.filter((_choice, index) => index !== (turn % 2 === 0 ? 4 : 3));
  for (const extra of STEADY_CHOICES) if (choices.length < 3 && !choices.includes(extra)) choices.push(extra);
  // The same list twice in a row reads as a stuck story.
  if (choices.join("\n") === previous.join("\n") && choices.length > 1) choices = [...choices.slice(1), choices[0] ?? ""];
  return choices.slice(0, 6);
}

// ---------------------------------------------------------------------------------------------
// The reply

function playerAddress(world: World, name: string | undefined): Address {
  const { honorific, vocative } = world.player;
  return { spoken: honorific ?? name ?? "", narrator: name ?? vocative ?? "" };
}

function openingParagraphs(teller: Teller, action: PlayerAction): string[] {
  const { world } = teller;
  const paragraphs: string[] = [];
  if (world.opening) paragraphs.push(world.opening);
  else if (action.kind === "ready")
    paragraphs.push("Your story begins here. The world is quiet, for now, and waiting to see what you will make of it.");
  if (world.openingBeats.length > 1) {
    const beats = world.openingBeats.map((beat, index, all) => {
      if (index !== all.length - 1) return beat;
      // "And the boy tugs the curtain…"; a name keeps its capital ("And Mistress Perrine slips you a note…").
      const common = /^(The|A|An|Someone|Somebody|Everyone|Nobody|One|Two|Three|Four)\b/.test(beat);
      return `And ${common ? beat.charAt(0).toLowerCase() + beat.slice(1) : beat}`;
    });
    paragraphs.push(beats.join(" "));
  }
  if (action.kind === "ready" || action.kind === "name") {
    // With the opening's own events told, the player's confidant steps in; otherwise the first of the cast.
    const person = confidant(world);
    const hook = person ? fill(pick(teller.random, OPENING_HOOKS), { who: called(person) }) : "";
    const invitation = world.player.nameInvitation && action.kind !== "name" ? `${world.player.nameInvitation} ${NAME_INVITATION}` : "";
    const both = [hook, invitation].filter(Boolean).join(" ");
    if (both) paragraphs.push(both);
  }
  return paragraphs;
}

function bodyParagraphs(teller: Teller, action: PlayerAction): { paragraphs: string[]; focus: Entity | undefined } {
  const { world, story } = teller;
  const paragraphs: string[] = [];
  if (action.name) paragraphs.push(nameParagraph(teller, action.name));
  const subjectEntity = action.subject !== undefined ? bestMention(world, action.subject) : undefined;
  const helper = confidant(world);
  switch (action.kind) {
    case "ready":
    case "name":
      return { paragraphs, focus: helper };
    case "self": {
      const paragraph = selfParagraph(teller, helper, action.name ?? teller.story.playerName);
      paragraphs.push(paragraph ?? actParagraphs(teller, action)[0] ?? "");
      return { paragraphs, focus: helper };
    }
    case "question": {
      const speaker = action.person ?? confidant(world, subjectEntity);
      paragraphs.push(answerParagraph(teller, action, subjectEntity, speaker));
      return { paragraphs, focus: speaker };
    }
    case "recall":
      paragraphs.push(recallParagraph(teller, action, subjectEntity));
      return { paragraphs, focus: subjectEntity && world.people.includes(subjectEntity) ? subjectEntity : undefined };
    case "advice": {
      const speaker = action.person ?? helper;
      paragraphs.push(adviceParagraph(teller, action, speaker));
      return { paragraphs, focus: speaker };
    }
    case "travel": {
      const place = action.place ?? story.place;
      if (place) paragraphs.push(arrivalParagraph(teller, action, place));
      else paragraphs.push(...actParagraphs(teller, action));
      return { paragraphs, focus: undefined };
    }
    case "talk": {
      const person = action.person ?? helper;
      if (person) paragraphs.push(talkParagraph(teller, action, person));
      else paragraphs.push(...actParagraphs(teller, action));
      return { paragraphs, focus: person };
    }
    case "investigate":
      paragraphs.push(discoveryParagraph(teller, action));
      return { paragraphs, focus: action.person };
    case "rest":
      paragraphs.push(restParagraph(teller, action));
      return { paragraphs, focus: undefined };
    case "wait":
    case "hesitate":
      paragraphs.push(reactionParagraph(teller, action, "wait"));
      return { paragraphs, focus: undefined };
    case "speech":
      paragraphs.push(reactionParagraph(teller, action, "speech"));
      return { paragraphs, focus: action.person };
    case "challenge":
    case "act":
      paragraphs.push(...actParagraphs(teller, action));
      return { paragraphs, focus: action.person };
  }
}

export function narrateTurn({
  world,
  action: message,
  previousReplies,
  previousActions = [],
  variant = 0,
  extending = false,
  trackedState,
}: TurnInput): string {
  const story = readContinuity({ world, previousActions, previousReplies, declaredName: (text) => declaredName(text, world) });
  // Continue extends the latest reply: the same turn, the same scene.
  if (extending) story.turn = Math.max(0, story.turn - 1);
  const firstTurn = story.turn === 0 && !extending;
  const action = readAction(world, message, { lastChoices: extending ? [] : story.lastChoices, firstTurn });
  const playerName = action.name ?? story.playerName;
  const address = playerAddress(world, playerName);
  const seed = `${world.title}\n${story.turn}\n${message}\n${(previousReplies.at(-1) ?? "").slice(-400)}\n${variant}\n${extending ? "more" : ""}`;
  const teller = new Teller(world, story, address, variant, seed);

  if (extending) {
    // More of the same moment: what else happened, seen from elsewhere, and what still presses.
    const more = [aftermathParagraph(teller, `more\n${message}\n${previousReplies.at(-1)?.length ?? 0}`)];
    const challenge = pickChallenge(teller);
    if (challenge) more.push(pressureParagraph(teller, challenge));
    const paragraphs = more.filter((paragraph): paragraph is string => paragraph !== undefined);
    if (paragraphs.length === 0) paragraphs.push(actParagraphs(teller, { ...action, told: undefined })[0] ?? "");
    if (trackedState) paragraphs.push(offlineStateBlock({ trackedState, action, status: undefined, quiet: true, random: teller.random }));
    return paragraphs.join("\n\n");
  }

  const place = action.kind === "travel" && action.place ? action.place : story.place;
  teller.story.place = place;
  const paragraphs: string[] = [];
  if (!firstTurn) paragraphs.push(sceneLine(world, story.turn, place));
  if (firstTurn) paragraphs.push(...openingParagraphs(teller, action));
  const body = bodyParagraphs(teller, action);
  if (firstTurn && action.kind !== "ready" && action.kind !== "name" && body.paragraphs[0]) {
    body.paragraphs[0] = `You begin as you mean to go on. ${body.paragraphs[0]}`;
  }
  paragraphs.push(...body.paragraphs);

  // Now and then the wider world intrudes: a trouble that will not wait, or what others make of it.
  const quiet = ["question", "recall", "self", "ready", "name"].includes(action.kind);
  const roll = teller.random();
  if (!firstTurn && !quiet && roll < 0.25) {
    const aftermath = aftermathParagraph(teller, action.text);
    if (aftermath) paragraphs.push(aftermath);
  } else if (firstTurn || (!quiet && roll < 0.6)) {
    const challenge = pickChallenge(teller);
    const pressure = challenge && action.challenge !== challenge ? pressureParagraph(teller, challenge) : undefined;
    if (pressure) paragraphs.push(pressure);
  }

  const status = currentStatus(world, previousReplies, story.turn);
  const moved = status && (firstTurn || quiet ? { status, changes: status.stats.map(() => 0) } : moveStats(status, action, teller.random));
  if (moved) paragraphs.push(renderStatus(moved.status, moved.changes));

  const addressLine = fill(nth(ADDRESS_LINES, story.turn + variant) ?? "", { address: address.narrator });
  paragraphs.push(`${addressLine} ${nth(PROMPT_TAILS, story.turn * 3 + variant) ?? ""}`);
  const focus = body.focus ?? action.person;
  paragraphs.push(
    choicesFor(teller, focus && world.people.includes(focus) ? focus : undefined, story.lastChoices)
      .map((choice, index) => `${index + 1}. ${choice}`)
      .join("\n"),
  );
  if (trackedState) {
    paragraphs.push(
      offlineStateBlock({
        trackedState,
        action,
        status: moved && { line: moved.status, changes: moved.changes },
        quiet: firstTurn || quiet,
        random: teller.random,
      }),
    );
  }
  return paragraphs.join("\n\n");
}
