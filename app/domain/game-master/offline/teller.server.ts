import { clockAt, type Continuity } from "./continuity.server.ts";
import { statement } from "./knowledge.server.ts";
import { mentioned } from "./mentions.server.ts";
import { laterName, midSentence, nameForms, shortName } from "./names.server.ts";
import type { Frame } from "./phrases.server.ts";
import { escapeRegExp, seededRandom, wordRuns } from "./text.server.ts";
import { type Entity, type World } from "./world.server.ts";

/**
 * The teller of one reply: the story it continues, how it addresses the player, a seeded random
 * choice, and what the world says about whom, freshest first.
 */

// ---------------------------------------------------------------------------------------------
// Deterministic choice

export function hash(text: string) {
  let value = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    value ^= text.charCodeAt(index);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

export type Random = () => number;

export function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError("pick() needs at least one item.");
  return item;
}

/** A seeded shuffle. */
export function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const keyed = items.map((item) => ({ item, key: random() }));
  return keyed.sort((a, b) => a.key - b.key).map(({ item }) => item);
}

/** The n-th item of a list, counting round. */
export function nth<T>(items: readonly T[], index: number): T | undefined {
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

export function between(value: number, low: number, high: number) {
  return value >= low && value <= high;
}

export function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "Marquis Mu Tieyan" (first mention) and the like: the name a narrator uses for a person. */
export function called(person: Entity) {
  return shortName(person.name);
}

// ---------------------------------------------------------------------------------------------
// The teller: one reply's choices, made from the turn and the story

export interface Address {
  /** How the world's people address the player in speech ("Your Majesty", "Lin Mei", or nothing). */
  spoken: string;
  /** How the narrator's closing question addresses the player ("Lin Mei", "Your Majesty", "disciple"). */
  narrator: string;
}

/**
 * Turns in a stretch: fewer than a context window holds, so what a stretch says about something
 * is still in view when it comes up again in the same stretch, and left alone.
 */
const KNOWLEDGE_STRETCH_TURNS = 6;

/**
 * A fact nobody asked for (what a place is like on arrival, who someone is when they answer a
 * greeting, the trouble behind an act) has a chance of its own: a few turns, fewer than the
 * newest replies every window keeps, so a repeat within them is visible and left out…
 */
const OFFERED_FOR_TURNS = 3;
/** …that comes round once in this many chances: 20 × 3 = 60 turns without telling it twice unasked. */
const OFFERED_ONCE_IN = 20;
/** The story's first scenes, which tell the player what they find whenever no reply has told it (mayOffer). */
const FIRST_SCENES_TURNS = 6;

/**
 * Whether the story may offer this fact unasked at this turn. The storyteller cannot see replies
 * that have left its context, so it cannot know whether an old reply told the fact; keyed on the
 * fact and on the turn the scene line carries, each fact's chance comes once in 60 turns, and a
 * fact told in it is still visible for the rest of it.
 */
export function offeredAt(sentence: string, turn: number) {
  return hash(sentence) % OFFERED_ONCE_IN === Math.floor(turn / OFFERED_FOR_TURNS) % OFFERED_ONCE_IN;
}

export class Teller {
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
   * Who or what it is comes first, unless `vivid` asks for what the content tells of them first;
   * `centralOnly` keeps to sentences about it, not those that name it in passing; `unasked` (the
   * player did not ask about it) keeps to fresh sentences whose chance this turn is (offeredAt).
   */
  knowledgeAbout(
    entity: Entity | undefined,
    phrase: string | undefined,
    {
      limit = 2,
      vivid = false,
      freshOnly = false,
      centralOnly = false,
      unasked = false,
    }: { limit?: number; vivid?: boolean; freshOnly?: boolean; centralOnly?: boolean; unasked?: boolean } = {},
  ): string[] {
    const own = entity
      ? statement(entity, { person: this.world.people.includes(entity), glossary: this.world.challenges.includes(entity) })
      : undefined;
    const about = entity ? sentencesAbout(this.world, entity) : phrase ? searchKnowledge(this.world.knowledge, phrase) : [];
    const ordered = vivid ? [...about, ...(own ? [own] : [])] : [...(own ? [own] : []), ...about];
    const unique = [...new Set(ordered)].filter((sentence) => !/\?$/.test(sentence));
    // Each stretch of turns starts further along what there is to say: what was said in turns that
    // have left the context comes back only once everything else has been said.
    // Only sentences about it take turns first (its own statement, or one naming it early); the
    // rest, which may be about someone else, stay behind them.
    const central = unique.filter((sentence) => sentence === own || !entity || between(sentence.indexOf(called(entity)), 0, 40));
    const start = Math.floor(this.story.turn / KNOWLEDGE_STRETCH_TURNS) % Math.max(1, central.length);
    const rest = centralOnly ? [] : unique.filter((sentence) => !central.includes(sentence));
    const all = [...central.slice(start), ...central.slice(0, start), ...rest];
    const told = this.toldRuns();
    const fresh = all.filter((sentence) => !this.said(sentence) && !wordRuns(sentence).some((run) => told.has(run)));
    // What nobody asked for is offered only in its chance (offeredAt), and never told again while visible.
    if (unasked) return fresh.filter((sentence) => this.mayOffer(sentence)).slice(0, limit);
    if (freshOnly) return fresh.slice(0, limit);
    // Fresh sentences first; if there are too few, the rest in turn.
    return [...fresh, ...all.filter((sentence) => !fresh.includes(sentence))].slice(0, limit);
  }

  /**
   * Whether a fact nobody asked for may be told now: in the story's first scenes, while the player
   * finds their way and every reply is in view, whenever no reply has told it; after them, only in
   * the fact's chance (offeredAt). A fact told freely later on, while the window still held every
   * reply, would come again in its chance once that reply had left the context.
   */
  mayOffer(sentence: string) {
    return (this.story.wholeStoryVisible && this.story.turn < FIRST_SCENES_TURNS) || offeredAt(sentence, this.story.turn);
  }

  /** Whether this reply or the one before it already says this. */
  recently(text: string) {
    return this.story.lastReply.includes(text) || [...this.written].some((paragraph) => paragraph.includes(text));
  }

  /**
   * The runs of eight words the visible replies and this one have: a sentence repeating one is not
   * fresh. The world says some things twice ("The Mission Hall is where…" and "At the mountain's
   * foot lies the Outer Courtyard: …, the Mission Hall where…"), and a reader hears the second as a
   * repeat.
   */
  private toldRuns() {
    return new Set([...this.story.seen, ...this.written].flatMap(wordRuns));
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

  /**
   * The slots every phrase may use, filled from this game and this moment: how people address the
   * player (`you`), where the scene is (`here`), another of the game's places (`elsewhere`), the
   * watch, someone around who is not already in the sentence (`someone`), and one of the game's
   * troubles. A phrase built on them reads as this story's, not as a formula every game shares.
   */
  values(extra: Record<string, string | undefined>) {
    const { world, story } = this;
    const { watch, nextWatch } = clockAt(world, story.turn);
    const named = new Set(Object.values(extra));
    const around = peopleAround(world, story.place).filter((person) => !named.has(called(person)) && !named.has(capitalise(called(person))));
    const others = world.places.filter((place) => place.name !== story.place?.name);
    const trouble = nth(world.challenges, story.turn + this.variant);
    const someone = nth(around, story.turn * 3 + this.variant + hash(Object.keys(extra).join()));
    return {
      you: this.address.spoken,
      here: story.place ? midSentence(story.place.name) : world.title,
      elsewhere: midSentence(nth(others, story.turn * 5 + 1 + this.variant)?.name ?? world.title),
      watch,
      nextWatch,
      someone: someone ? called(someone) : "a stranger",
      trouble: trouble ? challengePhrase(trouble) : "what is coming",
      ...extra,
    };
  }
}

/**
 * The world's sentences naming an entity, those about it (naming it early) first. A person is
 * named by their name, or by one word of it that no one else shares ("Deshun", not "Rong").
 */
const sentencesCache = new WeakMap<World, Map<Entity, string[]>>();

export function sentencesAbout(world: World, entity: Entity): string[] {
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
export function standsAlone(sentence: string) {
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
export function searchKnowledge(knowledge: string[], phrase: string): string[] {
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
export function spoken(sentences: string[]) {
  return sentences.map((sentence) => sentence.replace(/"([^"]*)"/g, "‘$1’").replace(/“([^”]*)”/g, "‘$1’")).join(" ");
}

const CONFIDANT = /\b(lady-in-waiting|roommate|dormitory friend|steward|secretary|assistant|mentor|confidant|maid)\b/i;

/** Who is at the player's side to answer, most trusted first: a confidant ("your lady-in-waiting"), family, then anyone. */
export function confidants(world: World): Entity[] {
  const yours = world.people.filter((person) => /^your\b/i.test(person.detail));
  const close = world.people.filter((person) => CONFIDANT.test(person.name) || CONFIDANT.test(person.detail));
  return [...new Set([...yours, ...close, ...world.people])];
}

/** The person who is with the player and answers questions (not the one the question is about). */
export function confidant(world: World, not?: Entity): Entity | undefined {
  return confidants(world).find((person) => person !== not);
}

export const peopleAtCache = new WeakMap<World, Map<string, Entity[]>>();

/** The people the world places somewhere: named in what it says about the place. */
export function peopleAt(world: World, place: Entity | undefined): Entity[] {
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
export function peopleAround(world: World, place: Entity | undefined): Entity[] {
  const elsewhere = new Set(world.places.filter((other) => other.name !== place?.name).flatMap((other) => peopleAt(world, other)));
  const here = peopleAt(world, place);
  const around = world.people.filter((person) => here.includes(person) || !elsewhere.has(person) || person === confidant(world));
  return around.length > 0 ? around : world.people;
}

/** "Border alarms" → "the border alarms"; a proper name keeps its capitals ("the Blood Lotus Sect"). */
export function challengePhrase(challenge: Entity) {
  if (/^the\b/i.test(challenge.name)) return midSentence(challenge.name);
  const proper = challenge.name
    .split(/\s+/)
    .slice(1)
    .some((word) => /^[A-Z]/.test(word));
  return `the ${proper ? challenge.name : challenge.name.toLowerCase()}`;
}
