import { looksLikePersonName, nameForms, shortName, TITLE_WORDS } from "./names.server.ts";
import { escapeRegExp } from "./text.server.ts";
import { type Entity, type World } from "./world.server.ts";

/** Which of the world's people, places and things a text names, best match first. */

// ---------------------------------------------------------------------------------------------
// What a message names

const namePatterns = new Map<string, { pattern: RegExp; weight: number }[]>();

/** The patterns that find an entity's name in a text, compiled once per name. */
function patternsFor(name: string, person: boolean) {
  const key = `${person ? "person" : "thing"}\n${name}`;
  let patterns = namePatterns.get(key);
  if (!patterns) {
    // Short name words ("Gu", "Mu") only count with their capital letter.
    patterns = nameForms(name, { person }).map(({ form, weight }) => ({
      pattern: new RegExp(`(?<![\\p{L}])${escapeRegExp(form)}(?![\\p{L}])`, form.length < 4 ? "u" : "iu"),
      weight,
    }));
    // A bound for a server whose games keep changing: the names of a few hundred worlds.
    if (namePatterns.size >= 10_000) namePatterns.clear();
    namePatterns.set(key, patterns);
  }
  return patterns;
}

export function mentionScore(entity: Entity, text: string, person: boolean) {
  let best = 0;
  let at = Number.POSITIVE_INFINITY;
  for (const { pattern, weight } of patternsFor(entity.name, person)) {
    if (weight <= best) continue;
    const match = pattern.exec(text);
    if (match) {
      best = weight;
      at = match.index;
    }
  }
  return { score: best, at };
}

/**
 * The entities a text names, best match first (a whole name before a shared surname). People
 * are also named by one word of their name ("Deshun"); everything else only in full.
 */
export function mentioned(entities: Entity[], text: string, { people = false } = {}): Entity[] {
  return entities
    .map((entity) => ({ entity, ...mentionScore(entity, text, people) }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score || a.at - b.at)
    .map(({ entity }) => entity);
}

/** Everything the world names, for finding what a message is about. */
export function named(world: World) {
  return [
    ...world.people.map((entity) => ({ entity, people: true })),
    ...[...world.places, ...world.groups, ...world.challenges, ...world.facts].map((entity) => ({ entity, people: false })),
  ];
}

/**
 * What a text is about: the best-named entity of any kind ("Orlaith Weir" is the weir, not
 * Matriarch Genevra Orlaith; "Life-Death Stage duels" the duels, not the stage).
 */
export function bestMention(world: World, text: string): Entity | undefined {
  let best: { entity: Entity; score: number; length: number; at: number } | undefined;
  for (const { entity, people } of named(world)) {
    const { score, at } = mentionScore(entity, text, people);
    if (score === 0) continue;
    const length = score >= 3 ? entity.name.length : 0;
    if (!best || score > best.score || (score === best.score && (length > best.length || (length === best.length && at < best.at)))) {
      best = { entity, score, length, at };
    }
  }
  return best?.entity;
}

/** The text without the full names of places, groups and troubles, so "Orlaith Weir" names no person. */
export function withoutThings(world: World, text: string) {
  let rest = text;
  for (const entity of [...world.places, ...world.groups, ...world.challenges]) {
    for (const { form, weight } of nameForms(entity.name)) {
      if (weight >= 3) rest = rest.replace(new RegExp(`(?<![\\p{L}])${escapeRegExp(form)}(?![\\p{L}])`, "giu"), " ");
    }
  }
  return rest;
}

/** A group's voice: someone the content names with it ("led by Grand Chancellor Duan Wenhai"). */
export function spokesperson(world: World, group: Entity): Entity | undefined {
  const about = [group.detail, ...world.knowledge.filter((sentence) => mentioned([group], sentence).length > 0)].join(" ");
  return mentioned(world.people, about, { people: true })[0];
}

/** Who a message speaks to: the name before its first comma ("Minister Qiao, how short…"), or the one asked or turned to. */
export function addressedPerson(world: World, message: string): Entity | undefined {
  const text = message.trim();
  const phrase =
    /^([^,:;“"?!]{2,60}),\s/.exec(text)?.[1] ?? /^(?:I\s+)?(?:ask|turn to|question|tell)\s+((?:\p{Lu}[\p{L}'’.-]*\s*)+)/u.exec(text)?.[1];
  if (!phrase) return undefined;
  const words: string[] = phrase.match(/\p{Lu}[\p{L}'’-]*/gu) ?? [];
  const named = mentioned(world.people, phrase, { people: true });
  // "Su" and "Qian" are too short to name anyone in running text, but a player addressing Senior Sister Su means her.
  const candidates =
    named.length > 0
      ? named
      : world.people.filter((person) =>
          shortName(person.name)
            .split(/\s+/)
            .some((word) => words.includes(word) && !TITLE_WORDS.has(word.toLowerCase())),
        );
  // "Minister Qiao" is the minister, not Consort Qiao: a title the phrase uses picks among those it names.
  const titled = candidates.find((person) =>
    words.some((word) => TITLE_WORDS.has(word.toLowerCase()) && new RegExp(`\\b${word}\\b`, "i").test(`${person.name} ${person.detail}`)),
  );
  return titled ?? candidates[0] ?? personInKnowledge(world, words);
}

/**
 * Someone the world's content names but its cast does not list ("Margo" is Margo Vance, an agent
 * the content describes): the longest capitalised name in its sentences holding a word the player used.
 */
function personInKnowledge(world: World, words: readonly string[]): Entity | undefined {
  const names = words.filter((word) => word.length >= 3 && !TITLE_WORDS.has(word.toLowerCase()));
  if (names.length === 0) return undefined;
  // A fact the content describes may be a person ("Theo Castellan of Apex Talent Group…"); places, powers and troubles are not.
  const known = new Set(
    [...world.places, ...world.groups, ...world.challenges, ...world.facts.filter((fact) => !looksLikePersonName(fact.name))].map(
      (entity) => entity.name,
    ),
  );
  let best: string | undefined;
  for (const sentence of world.knowledge) {
    for (const name of names) {
      const pattern = new RegExp(`(?:\\p{Lu}[\\p{L}'’.-]*\\s+)*${escapeRegExp(name)}(?:\\s+\\p{Lu}[\\p{L}'’-]*)*`, "gu");
      for (const match of sentence.matchAll(pattern)) {
        const found = match[0].replace(/^(?:The|A|An|And|But|When|If)\s+/, "");
        if (!known.has(found) && found.split(/\s+/).length >= 2 && found.length > (best?.length ?? 0)) best = found;
      }
    }
  }
  return best ? { name: best, detail: "" } : undefined;
}

/**
 * Someone the player names in full whom the cast does not list but the content does ("I crash Nova
 * Reyes's private party": Nova Reyes, content chief of Tidewater).
 */
export function personNamedInKnowledge(world: World, message: string): Entity | undefined {
  const facts = world.facts.filter((fact) => !looksLikePersonName(fact.name));
  const things = [...world.places, ...world.groups, ...world.challenges, ...facts].map((entity) => entity.name);
  for (const match of message.matchAll(/(?<![\p{L}])\p{Lu}[\p{L}-]+(?:\s+\p{Lu}[\p{L}-]+){1,2}/gu)) {
    const name = match[0];
    // "Diligent Study" of "the Pavilion of Diligent Study" is a place's name, not a person's.
    const partOfAThing = things.some((thing) => thing.includes(name)) || /\bof\s+$/.test(message.slice(0, match.index));
    if (/^I\b/.test(name) || partOfAThing || !looksLikePersonName(name)) continue;
    if (world.knowledge.some((sentence) => new RegExp(`(?<![\\p{L}])${escapeRegExp(name)}(?![\\p{L}])`, "u").test(sentence)))
      return { name, detail: "" };
  }
  return undefined;
}

/**
 * Reads the player's message. `lastChoices` are the choices the previous reply offered: "2", "2."
 * or a choice's exact text picks that choice.
 */
