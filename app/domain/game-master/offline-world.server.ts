import type { StoryBrief, WorldSection } from "./story-brief.server.ts";

/**
 * What the offline storyteller can say about a game, read from the same system prompt a model
 * gets: the opening scene, the people, places, groups and challenges named in the published world
 * content, and the stats the game's prompt asks the narrator to track.
 */
export interface Entity {
  name: string;
  /** The first sentence the content says about it (may be empty). */
  detail: string;
}

export interface Stat {
  label: string;
  value: number;
  /** How the value is written: "$" before it, " taels" after it. */
  prefix: string;
  suffix: string;
  /** "fixed" items (a realm, "Root: Poor") are repeated as written. */
  kind: "score" | "money" | "time" | "fixed";
}

export interface StatusLine {
  stats: Stat[];
  /** The emphasis the game's prompt uses for its status line: "**" or "*". */
  emphasis: string;
}

export interface World {
  title: string;
  opening: string | undefined;
  people: Entity[];
  places: Entity[];
  groups: Entity[];
  challenges: Entity[];
  /** Named things the content describes, for what the player learns by looking closer. */
  facts: Entity[];
  status: StatusLine | undefined;
}

const PLACE_WORDS =
  /\b(hall|palace|pavilion|street|mile|row|pier|canyon|library|tower|clocktower|room|courtyard|caf[eé]|gate|pass|province|marches|garden|office|city|temple|market|harbou?r|bay|hill|academy|observatory|tree|ginkgo|kettle|walk|dormitory|court|capital|river|mountain|peak|valley|forest|sect hall|manor|estate|quarter|district|square|bridge|lake|sea|island|shrine|tavern|inn|school|campus|gymnasium|station|studio|theater|theatre|club house|residence|chamber|wing|archive|vault|ruins?|castle|weir|keep|fort|fortress|port|villa|palazzo|abbey|cathedral|exchange|plaza|docks?|wharf)\b/i;
const GROUP_WORDS =
  /\b(pictures|records|group|club|team|council|clan|clans|house|sect|order|guild|faction|stream|guard|army|court|eunuchs|ministry|confederacy|ledger|street press|company|society|family|school|league|alliance|union|studio)\b/i;
export const PERSON_DETAIL =
  /^(,|and\b|is\b|was\b|starts\b|can\b|will\b|plays\b|wants\b|arrives\b|has\b|who\b|keeps\b|hides\b|respects\b|would\b|makes\b|handles\b|runs\b|teaches\b|calls\b|leads\b|guards\b|holds\b|insists\b|narrates\b)/i;
const TIME_LABELS = /^(week|day|year|month|season|turn|chapter)$/i;
const TITLE_WORDS = new Set(
  "chief grand prince princess minister consort commander madam lady lord empress dowager imperial tutor censor marquis emperor king queen general master elder senior junior student council president headmistress headmaster professor doctor captain mr mrs ms miss sir the of and".split(
    " ",
  ),
);

function firstSentence(text: string) {
  const clean = text.replace(/\s+/g, " ").trim();
  const match = /^(.+?[.!?])(\s|$)/.exec(clean);
  return (match?.[1] ?? clean).trim();
}

function stripMarkdown(text: string) {
  return text
    .replace(/\*\*|__/g, "")
    .replace(/(^|\s)[*_](\S)/g, "$1$2")
    .replace(/(\S)[*_](\s|$|[.,;:!?])/g, "$1$2");
}

interface Mention {
  name: string;
  detail: string;
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
      const after = stripMarkdown(line.slice(match.index + match[0].length)).replace(/^\s*[:—–-]\s*/, "");
      found.push({ name, detail: firstSentence(after), heading, section, inList });
    }
  }
  return found;
}

function looksLikePersonName(name: string) {
  const words = name
    .replace(/["“”'‘’()]/g, " ")
    .split(/[\s,]+/)
    .filter(Boolean);
  if (words.length < 2 || words.length > 7 || /^the\b/i.test(name)) return false;
  return words.every((word) => /^[A-Z]/.test(word) || TITLE_WORDS.has(word.toLowerCase()));
}

function addUnique(list: Entity[], entity: Entity) {
  const key = shortName(entity.name).toLowerCase();
  if (!key || list.some((existing) => shortName(existing.name).toLowerCase() === key)) return;
  list.push(entity);
}

/** The example status line of the prompt, e.g. **Grace 75 · Imperial Stability 68 · …**. */
export function parseStatusLine(text: string): StatusLine | undefined {
  let best: StatusLine | undefined;
  for (const match of text.matchAll(/(\*{1,2})([^*\n]*\d[^*\n]*·[^*\n]*)\1/g)) {
    const stats = (match[2] ?? "").split("·").flatMap((item): Stat[] => {
      const parsed = /^\s*([^\d$]*?[A-Za-z][^\d$]*?)\s+(\$?)([\d,]+)(\s*[A-Za-z]+)?(?:\s*\([^)]*\))?\s*$/.exec(item);
      // A relationship that just changed ("June: Warm → Ally") is news, not a standing fact.
      if (!parsed) return item.includes("→") || !item.trim() ? [] : [{ label: item.trim(), value: 0, prefix: "", suffix: "", kind: "fixed" }];
      const [, label = "", prefix = "", digits = "", unit = ""] = parsed;
      const value = Number(digits.replaceAll(",", ""));
      const kind = TIME_LABELS.test(label.trim()) ? "time" : prefix || unit.trim() || value >= 1000 ? "money" : "score";
      return [{ label: label.trim(), value, prefix, suffix: unit ? ` ${unit.trim()}` : "", kind }];
    });
    const counted = stats.filter((stat) => stat.kind !== "fixed").length;
    if (counted >= 2 && (!best || stats.length > best.stats.length)) best = { stats, emphasis: match[1] ?? "**" };
  }
  return best;
}

function openingScene(prompt: string, sections: WorldSection[]) {
  const firstParagraph = prompt.split(/\n\s*\n/)[0]?.trim() ?? "";
  if (firstParagraph && !/^you are (the|a|an) /i.test(firstParagraph) && !/game master/i.test(firstParagraph)) {
    return firstParagraph;
  }
  const background = sections.find((section) => section.contentType === "story_background");
  const paragraph = background?.content.split(/\n\s*\n/).find((block) => block.trim() && !block.trim().startsWith("#") && !/^\s*[-*]/.test(block));
  return paragraph?.trim();
}

const NAME_IN_LIST = /\b([A-Z][\p{L}'’.-]*(?:\s+[A-Z][\p{L}'’.-]*)+)/u;

/**
 * The cast a prompt lists in a line such as "Key figures: Rong Yuan, the Tianyou Emperor (8, …);
 * Grand Empress Dowager Hua (61, …); …" or "Characters: Penny Larkspur, …; …".
 */
function promptCast(prompt: string): Entity[] {
  const cast: Entity[] = [];
  for (const match of prompt.matchAll(/\b(?:key figures|characters|cast|also)\s*:\s*([^\n]+)/gi)) {
    const list = (match[1] ?? "").split(/(?<!\b(?:Mr|Mrs|Ms|Dr|St))\.\s+(?=[A-Z])/)[0] ?? "";
    for (const segment of list.split(";")) {
      const name = NAME_IN_LIST.exec(segment.replace(/\([^)]*\)/g, ""))?.[1];
      if (!name || PLACE_WORDS.test(name) || GROUP_WORDS.test(name)) continue;
      const detail = segment
        .slice(segment.indexOf(name) + name.length)
        .replace(/^[\s,]+/, "")
        .replace(/\.$/, "");
      addUnique(cast, { name: name.replace(/\.$/, ""), detail });
    }
  }
  return cast;
}

/** Reads the world out of a story brief. */
export function readWorld(brief: StoryBrief): World {
  const world: World = {
    title: brief.title,
    opening: openingScene(brief.prompt, brief.sections),
    people: promptCast(brief.prompt),
    places: [],
    groups: [],
    challenges: [],
    facts: [],
    status: parseStatusLine(brief.prompt),
  };
  const statLabels = new Set(world.status?.stats.map((stat) => stat.label.toLowerCase()));
  // Terms the prompt itself puts in bold are its stats and institutions, not its cast.
  const promptTerms = new Set([...brief.prompt.matchAll(/\*\*([^*]+)\*\*/g)].map((match) => (match[1] ?? "").trim().toLowerCase()));
  // A cast the prompt lists is the designer's own; content adds people only when there is none.
  const castFromContent = world.people.length < 3;

  for (const section of brief.sections) {
    for (const mention of mentions(section)) {
      const entity = { name: mention.name, detail: mention.detail };
      if (statLabels.has(mention.name.toLowerCase())) continue;
      if (mention.detail.length >= 30 && /^[a-z]/.test(mention.detail)) addUnique(world.facts, entity);
      if (section.contentType === "combat_mechanics") {
        if (mention.inList && !/weapon|tool|approach|how|your|sweat|sparkle|option/i.test(mention.heading)) {
          addUnique(world.challenges, entity);
        }
        continue;
      }
      if (mention.name.toLowerCase() === brief.title.toLowerCase()) continue;
      if (looksLikePersonName(mention.name) && !PLACE_WORDS.test(mention.name) && !GROUP_WORDS.test(mention.name)) {
        if (castFromContent && PERSON_DETAIL.test(mention.detail) && !promptTerms.has(mention.name.toLowerCase())) {
          addUnique(world.people, entity);
        }
        continue;
      }
      if (section.contentType !== "world_setting") continue;
      if (/faction|power|player|club|house|clan|sect|group|organi/i.test(mention.heading) || GROUP_WORDS.test(mention.name)) {
        addUnique(world.groups, entity);
      } else if (
        /place|district|campus|beyond|where|location|map|city|region|realm|court|hill/i.test(mention.heading) ||
        PLACE_WORDS.test(mention.name)
      ) {
        addUnique(world.places, entity);
      }
    }
  }
  return world;
}

/** "The Hall of Luminous Governance" → "the Hall of Luminous Governance", for use mid-sentence. */
export function midSentence(name: string) {
  if (/^The\b/.test(name)) return name.replace(/^The\b/, "the");
  // "Palace of Ninefold Clouds" reads as "the Palace of Ninefold Clouds"; "Ninth Street" stays.
  const firstWord = name.split(/\s+/)[0] ?? "";
  return PLACE_WORDS.test(firstWord) && name.includes(" ") ? `the ${name}` : name;
}

/** "Rong Shu, Prince of Jing" → "Rong Shu"; 'Valentina "Val" Ashcombe' → "Valentina Ashcombe". */
export function shortName(name: string) {
  return (name.split(",")[0] ?? name)
    .replace(/\s*["“][^"”]*["”]\s*/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** The words of a person's name a player would type ("Qiao", "Deshun", "Penny"), titles left out. */
export function nameKeys(name: string) {
  return shortName(name)
    .split(/\s+/)
    .map((word) => word.replace(/[^\p{L}]/gu, ""))
    .filter((word) => word.length >= 3 && !TITLE_WORDS.has(word.toLowerCase()));
}
