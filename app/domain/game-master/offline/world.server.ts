import type { StoryBrief, WorldSection } from "../story-brief.server.ts";
import { openingBeats, openingScene, promptCast, readPlayer } from "./cast.server.ts";
import { readKnowledge } from "./knowledge.server.ts";
import { addUnique, EVENT_WORDS, GROUP_WORDS, looksLikePersonName, PERSON_DETAIL, PLACE_WORDS, shortName } from "./names.server.ts";
import { parseStatusLine, type StatusLine } from "./status-line.server.ts";
import { cleanDetail, escapeRegExp, firstSentence, isAboutTheGame, playerAsYou, stripMarkdown } from "./text.server.ts";

/**
 * What the offline storyteller can say about a game, read from the same system prompt a model
 * gets: who the player is, the opening scene, the people, places, groups and challenges named in
 * the published world content, what the content says about them (its sentences, for answering
 * questions), and the stats the game's prompt asks the narrator to track.
 *
 * Content is written for a model and for players, so it holds notes a story must not repeat
 * ("the player's lady-in-waiting", "starts the game 400,000 taels short", "(an optional slow-burn
 * romance)"): the player is turned into "you", and sentences that talk about the game rather than
 * the world are left out.
 */
export interface Entity {
  name: string;
  /** What the content says right after the name (may be empty), never a note about the game. */
  detail: string;
}

export interface Player {
  /** Who the opening makes the player: "the Empress Dowager", "an outer disciple". */
  role: string | undefined;
  /** How the world's people address the player ("Your Majesty"); without one they use the player's name. */
  honorific: string | undefined;
  /** How the narrator addresses a player whose name it does not know yet ("Your Majesty", "disciple"). */
  vocative: string | undefined;
  /** The game leaves the player's name open: the opening invites it, with the game's own hint when it has one. */
  nameInvitation: string | undefined;
}

export interface World {
  title: string;
  opening: string | undefined;
  /** What happens as the story opens ("Marquis Mu asks to bring 3,000 horsemen…"), from the prompt's "Begin with…". */
  openingBeats: string[];
  player: Player;
  people: Entity[];
  places: Entity[];
  groups: Entity[];
  challenges: Entity[];
  /** Named things the content describes, for what the player learns by looking closer. */
  facts: Entity[];
  /** Every sentence the world's content says (as the player's "you"), for answering questions. */
  knowledge: string[];
  /** Where the opening scene is set. */
  startPlace: Entity | undefined;
  /** The time of day the opening scene is set in: an index of WATCHES. */
  startWatch: number;
  /** The day the story opens on: the day its prompt's status line shows ("Day 3 of 90"), else 1. */
  startDay: number;
  status: StatusLine | undefined;
}

/** The story's clock: every turn is one watch of a day. */
export const WATCHES = ["morning", "afternoon", "evening", "night"] as const;

// ---------------------------------------------------------------------------------------------
// The content: bold names and the sentences around them

interface Mention {
  name: string;
  detail: string;
  /** The detail was cut short by the next bold name: the line lists names rather than describing this one. */
  cut: boolean;
  heading: string;
  section: WorldSection;
  inList: boolean;
}

/** Every **bold** name of the Markdown, with the sentence that follows it and the heading above it. */
function mentions(section: WorldSection): Mention[] {
  const found: Mention[] = [];
  let heading = "";
  for (const line of section.content.split("\n")) {
    const headingMatch = /^#{1,6}\s+(.*)$/.exec(line);
    if (headingMatch) {
      heading = headingMatch[1] ?? "";
      continue;
    }
    const inList = /^\s*[-*+]\s+/.test(line);
    for (const match of line.matchAll(/\*\*([^*]{2,60}?)\*\*/g)) {
      const name = (match[1] ?? "").trim().replace(/[.:,]$/, "");
      const rest = line.slice(match.index + match[0].length);
      const next = rest.indexOf("**");
      const between = next >= 0 ? rest.slice(0, next).replace(/\s*\([^)]*\)/g, "") : "";
      // "**Outer Courtyard**: crowded dormitories, the **Mission Hall** …, the **Scripture Pavilion**": a list of names,
      // where what follows a name is the next name, not its description.
      const cut = next >= 0 && between.length < 40 && /(,|;|\band|\bthe|\ban?)\s*$/.test(between);
      let detail = firstSentence(stripMarkdown(rest).replace(/^\s*[:—–-]\s*/, ""));
      if (cut) {
        const clause =
          cleanDetail(stripMarkdown(between).replace(/^\s*[:—–-]\s*/, ""))
            .split(/[:;]|,\s+(?:and\s+)?(?:the|a|an)?\s*$/)[0]
            ?.replace(/,[^,]*$/, "") ?? "";
        detail = clause.replace(/^[\s,]+/, "").length >= 15 ? `${clause}.` : "";
      }
      // "East lie the **Salt Marches**": the content's own article belongs to the name.
      const article = /\bthe\s*$/i.test(line.slice(0, match.index)) && !/^the\b/i.test(name) ? "The " : "";
      found.push({ name: `${article}${name}`, detail, cut, heading, section, inList });
    }
  }
  return found;
}

function classifyPlace(mention: Mention) {
  if (EVENT_WORDS.test(mention.name) || /^[a-z]/.test(mention.name)) return "fact";
  if (PLACE_WORDS.test(mention.name)) return "place";
  // "Crane's Crown, the central summit, seat of…": the first words of the detail say what it is.
  if (PLACE_WORDS.test(mention.detail.replace(/^[\s,]+/, "").split(/[,;:]/)[0] ?? "") && !GROUP_WORDS.test(mention.name)) return "place";
  if (/^,?\s*(the central summit|where)\b/i.test(mention.detail)) return "place";
  if (GROUP_WORDS.test(mention.name)) return "group";
  if (/faction|power|player|club|house|clan|sect|group|organi/i.test(mention.heading)) return "group";
  if (/place|district|campus|beyond|where|location|map|city|region|realm|court|hill|province/i.test(mention.heading)) return "place";
  return "fact";
}

/** Reads the world out of a story brief. */
export function readWorld(brief: StoryBrief): World {
  const prompt = playerAsYou(brief.prompt);
  const opening = openingScene(brief.prompt, brief.sections);
  const status = parseStatusLine(brief.prompt);
  const statLabels = status?.stats.filter((stat) => stat.kind !== "fixed").map((stat) => stat.label) ?? [];
  const world: World = {
    title: brief.title,
    opening,
    openingBeats: openingBeats(prompt),
    player: readPlayer(brief.prompt, opening),
    people: promptCast(prompt),
    places: [],
    groups: [],
    challenges: [],
    facts: [],
    knowledge: [],
    startPlace: undefined,
    startWatch: 0,
    startDay: status?.stats.find((stat) => stat.kind === "time" && /^day$/i.test(stat.label))?.value ?? 1,
    status,
  };
  const statNames = new Set(status?.stats.map((stat) => stat.label.toLowerCase()));
  // Terms the prompt itself puts in bold are its stats and institutions, not its cast.
  const promptTerms = new Set([...brief.prompt.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => (match[1] ?? "").trim().toLowerCase()));
  const castFromPrompt = world.people.length >= 3;
  const about = (text: string) => isAboutTheGame(text, statLabels, brief.title);

  for (const section of brief.sections) {
    for (const mention of mentions(section)) {
      const detail = playerAsYou(cleanDetail(mention.detail));
      const entity = { name: mention.name, detail: about(detail) ? "" : detail };
      if (statNames.has(mention.name.toLowerCase()) || /\(starts\b/i.test(mention.name)) continue;
      if (mention.name.toLowerCase() === brief.title.toLowerCase()) continue;
      const rules = section.contentType === "character_progression" || section.contentType === "dialogue_system";
      if (!rules && !mention.cut && entity.detail.length >= 30 && /^[a-z,]/.test(entity.detail)) addUnique(world.facts, entity);
      if (section.contentType === "combat_mechanics") {
        if (mention.inList && !/weapon|tool|approach|how|your|sweat|sparkle|option/i.test(mention.heading)) {
          addUnique(world.challenges, entity);
        }
        continue;
      }
      if (
        looksLikePersonName(mention.name) &&
        !PLACE_WORDS.test(mention.name) &&
        !GROUP_WORDS.test(mention.name) &&
        !EVENT_WORDS.test(mention.name)
      ) {
        // A cast the prompt lists is the designer's own; content adds the people it describes at length.
        const described = PERSON_DETAIL.test(mention.detail) && !promptTerms.has(mention.name.toLowerCase());
        if (described && (!castFromPrompt || section.contentType === "character_development")) addUnique(world.people, entity);
        continue;
      }
      if (section.contentType !== "world_setting") continue;
      const kind = classifyPlace(mention);
      if (kind === "group") addUnique(world.groups, entity);
      else if (kind === "place") addUnique(world.places, entity);
    }
  }
  // Troubles told as headed paragraphs ("### Scandals\n\nSooner or later, something lands on Spill Street…").
  if (world.challenges.length === 0) {
    for (const section of brief.sections.filter((candidate) => candidate.contentType === "combat_mechanics")) {
      for (const match of section.content.matchAll(/^#{2,4}\s+(.+)\n+([^#\n][^\n]*)/gm)) {
        const detail = playerAsYou(stripMarkdown(firstSentence(match[2] ?? "")));
        const namesAStat = statLabels.some((label) => new RegExp(`\\b${escapeRegExp(label)}\\b`).test(detail));
        if (!about(detail) && !namesAStat && detail.length >= 25) addUnique(world.challenges, { name: (match[1] ?? "").trim(), detail });
      }
    }
  }
  // People the content describes better than the prompt's list ("Imperial Tutor Pei Zhen" has no detail there).
  for (const person of world.people) {
    if (person.detail) continue;
    const fact = world.facts.find((entry) => shortName(entry.name) === shortName(person.name));
    if (fact) person.detail = fact.detail;
  }
  world.knowledge = readKnowledge(brief, statLabels, new Set(world.people.map((person) => shortName(person.name))));
  world.startPlace = firstMentioned(world.places, opening ?? "");
  const time = /\b(tonight|midnight|night|dawn|morning|noon|afternoon|evening|dusk|sunset)\b/i.exec(opening ?? "")?.[1]?.toLowerCase();
  world.startWatch = time === undefined ? 0 : /night/.test(time) ? 3 : /evening|dusk|sunset/.test(time) ? 2 : /noon|afternoon/.test(time) ? 1 : 0;
  return world;
}

/** The place the opening is set in: one it puts the player "in", "at" or "on", else the first it names. */
function firstMentioned(places: Entity[], text: string) {
  const lower = text.toLowerCase();
  let best: { place: Entity; at: number; score: number } | undefined;
  for (const place of places) {
    const at = lower.indexOf(place.name.replace(/^the /i, "").toLowerCase());
    if (at < 0) continue;
    const score = /\b(in|at|on|inside|of)\s+(the\s+)?(candlelit\s+)?$/.test(lower.slice(Math.max(0, at - 30), at)) ? 1 : 0;
    if (!best || score > best.score || (score === best.score && at < best.at)) best = { place, at, score };
  }
  return best?.place ?? places[0];
}
