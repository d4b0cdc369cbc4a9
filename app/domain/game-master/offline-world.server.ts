import type { StoryBrief, WorldSection } from "./story-brief.server.ts";

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

export interface Stat {
  label: string;
  value: number;
  /** How the value is written: "$" before it, " taels" after it, " of 90" after a day. */
  prefix: string;
  suffix: string;
  /** "fixed" items (a realm, "Root: Poor") are repeated as written; "time" follows the story's clock. */
  kind: "score" | "money" | "time" | "fixed";
}

export interface StatusLine {
  stats: Stat[];
  /** The emphasis the game's prompt uses for its status line: "**" or "*". */
  emphasis: string;
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
  status: StatusLine | undefined;
}

/** The story's clock: every turn is one watch of a day. */
export const WATCHES = ["morning", "afternoon", "evening", "night"] as const;

const PLACE_WORDS =
  /\b(hall|palace|pavilion|street|mile|row|pier|canyon|library|tower|clocktower|room|courtyard|caf[eé]|gate|pass|province|marches|garden|office|city|temple|market|harbou?r|bay|hill|academy|observatory|tree|ginkgo|kettle|walk|dormitory|capital|river|mountain|peak|summit|valley|forest|manor|estate|quarter|district|square|bridge|lake|sea|island|isle|shrine|tavern|inn|campus|gymnasium|station|theater|theatre|club house|residence|chamber|wing|archive|vault|ruins?|castle|weir|keep|fort|fortress|port|villa|palazzo|abbey|cathedral|exchange|plaza|docks?|wharf|quay|marsh|realm|arena|stage|fields?|abodes?|town|village|greymarch|march)\b/i;
const GROUP_WORDS =
  /\b(pictures|records|group|club|team|council|clan|clans|house|sect|order|guild|faction|stream|guard|army|eunuchs|ministry|confederacy|ledger|street press|company|society|family|league|alliance|union|bank|crown|hearths|temple)\b/i;
/** Happenings, not things one can visit or talk to: facts only. */
const EVENT_WORDS =
  /\b(assessment|tournament|festival|rite|exams?|ceremony|election|masque|ball|vigil|reckoning|season|crowns|path|disciple|rival|stranger|friend|hand|reformer|mother of|keeper|weaver|matriarch|darling|mogul|phenomenon|artist|regent)\b/i;
export const PERSON_DETAIL =
  /^(,|and\b|is\b|was\b|starts\b|can\b|will\b|plays\b|wants\b|arrives\b|has\b|who\b|keeps\b|hides\b|respects\b|would\b|makes\b|handles\b|runs\b|teaches\b|calls\b|leads\b|guards\b|holds\b|insists\b|narrates\b|knows\b|loves\b)/i;
const TIME_LABELS = /^(week|day|year|month|season|turn|chapter)$/i;
const TITLE_WORDS = new Set(
  "chief grand prince princess minister consort commander madam lady lord empress dowager imperial tutor censor marquis emperor king queen general master elder senior junior student council president headmistress headmaster professor doctor captain mr mrs ms miss sir the of and first second third fourth steward mistress deacon sect manager saintess high lampwarden khagan harbormaster matriarch patriarch eunuch chancellor duke duchess count countess baron baroness magistrate admiral sergeant coach abbot abbess".split(
    " ",
  ),
);

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

function stripMarkdown(text: string) {
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
function cleanDetail(detail: string) {
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

function firstSentence(text: string) {
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

// ---------------------------------------------------------------------------------------------
// Names

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

/**
 * The ways a text can name an entity, most specific first: its whole name, the name without its
 * titles ("Mu Tieyan"), a title with the first name word ("Marquis Mu", "Chief Eunuch Gu"), and,
 * for a person, each name word of three letters or more ("Deshun"). A place is named in full:
 * "palace" alone is not the Cold Palace.
 */
export function nameForms(name: string, { person = false } = {}): { form: string; weight: number }[] {
  const short = shortName(name);
  const bare = short.replace(/^the\s+/i, "");
  const words = bare.split(/\s+/);
  const titles = words.filter((word) => TITLE_WORDS.has(word.toLowerCase()));
  const rest = words.filter((word) => !TITLE_WORDS.has(word.toLowerCase()));
  const forms = [
    { form: bare, weight: 4 },
    ...(titles.length > 0 && rest.length > 0 ? [{ form: rest.join(" "), weight: 3 }] : []),
    ...(titles.length > 0 && rest.length > 1 ? [{ form: `${titles.join(" ")} ${rest[0] ?? ""}`, weight: 3 }] : []),
    ...(person ? nameKeys(name).map((key) => ({ form: key, weight: 1 })) : []),
  ];
  return forms.filter((entry, index) => entry.form && forms.findIndex((other) => other.form === entry.form) === index);
}

/** Titles that go with a name rather than stand alone: "Madam Lin", not "the Madam". */
const HONORIFIC_TITLES = new Set("madam lady lord mistress mr mrs ms miss sir matriarch patriarch queen king prince princess".split(" "));

/**
 * How a narrator names someone a second time in a paragraph: by title ("the Chief Eunuch", "the
 * Grand Empress Dowager"), by honorific and name ("Madam Lin"), or by the first name the world
 * itself uses alone ("Penny", "June"); else the whole name again.
 */
export function laterName(person: Entity, worldText: string) {
  const words = shortName(person.name).split(/\s+/);
  const titles: string[] = [];
  for (const word of words) {
    if (!TITLE_WORDS.has(word.toLowerCase().replace(/\.$/, "")) || /^(the|of|and)$/i.test(word)) break;
    titles.push(word);
  }
  const rest = words.slice(titles.length);
  if (titles.length > 0 && rest.length > 0) {
    const honorific = titles.length === 1 && HONORIFIC_TITLES.has((titles[0] ?? "").toLowerCase().replace(/\.$/, ""));
    return honorific ? `${titles[0] ?? ""} ${rest[0] ?? ""}` : `the ${titles.join(" ")}`;
  }
  // "Penny calls it…": the world's own text uses the first name alone, as a subject (not "the House of Rong", "the Wen clan").
  const [first, second] = words;
  const alone =
    first && second
      ? new RegExp(`(?<!\\bof )\\b${escapeRegExp(first)}\\b(?!\\s+${escapeRegExp(second)})\\s+(?:is|has|was|will|[a-z]+s)\\b`)
      : undefined;
  if (first && alone?.test(worldText)) return first;
  return shortName(person.name);
}

/** "First Consort Aurelien Dastre" → "Aurelien Dastre": the name without its titles. */
export function coreName(name: string) {
  const words = shortName(name).split(/\s+/);
  const core = words.filter((word) => !TITLE_WORDS.has(word.toLowerCase()));
  return (core.length > 0 ? core : words).join(" ");
}

function addUnique(list: Entity[], entity: Entity) {
  const key = coreName(entity.name).toLowerCase();
  if (!key || list.some((existing) => coreName(existing.name).toLowerCase() === key)) return;
  list.push(entity);
}

function looksLikePersonName(name: string) {
  const words = name
    .replace(/["“”'‘’()]/g, " ")
    .split(/[\s,]+/)
    .filter(Boolean);
  if (words.length < 2 || words.length > 7 || /^the\b/i.test(name)) return false;
  return words.every((word) => /^[A-Z]/.test(word) || TITLE_WORDS.has(word.toLowerCase()));
}

// ---------------------------------------------------------------------------------------------
// The status line

/** The example status line of the prompt, e.g. **Grace 75 · Imperial Stability 68 · …**. */
export function parseStatusLine(text: string): StatusLine | undefined {
  let best: StatusLine | undefined;
  for (const match of text.matchAll(/(\*{1,2})([^*\n]*\d[^*\n]*·[^*\n]*)\1/g)) {
    const stats = (match[2] ?? "").split("·").flatMap((item): Stat[] => {
      const clock = /^\s*(day|week|month|year)\s+(\d+)(\s+of\s+\d+)?\s*$/i.exec(item);
      if (clock) return [{ label: clock[1] ?? "", value: Number(clock[2]), prefix: "", suffix: clock[3] ?? "", kind: "time" }];
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

// ---------------------------------------------------------------------------------------------
// The prompt: the opening, who the player is, the cast

function promptParagraphs(prompt: string) {
  return prompt
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);
}

function openingScene(prompt: string, sections: WorldSection[]) {
  const firstParagraph = promptParagraphs(prompt)[0] ?? "";
  if (firstParagraph && !/^you are (the|a|an) /i.test(firstParagraph) && !/game master/i.test(firstParagraph)) {
    return firstParagraph;
  }
  const background = sections.find((section) => section.contentType === "story_background");
  const paragraph = background?.content.split(/\n\s*\n/).find((block) => block.trim() && !block.trim().startsWith("#") && !/^\s*[-*]/.test(block));
  return paragraph ? stripMarkdown(paragraph.trim()) : undefined;
}

/** "Begin with the morning audience: Marquis Mu asks…; Minister Qiao reports…; and the boy…" → its beats. */
function openingBeats(prompt: string) {
  const match = /\bBegin (?:with|at|in) [^:.]+:\s*([^\n]+?)(?:\.\s+(?=[A-Z])|\.?$)/m.exec(prompt);
  if (!match) return [];
  return (match[1] ?? "")
    .split(";")
    .map((beat) => beat.trim().replace(/^and\s+/i, ""))
    .filter((beat) => beat.length > 0)
    .map((beat) => `${beat.charAt(0).toUpperCase()}${beat.slice(1)}`.replace(/[.]?$/, "."));
}

const HONORIFICS: [RegExp, string | undefined, string][] = [
  [/\b(empress|emperor|queen|king|dowager)\b/i, "Your Majesty", "Your Majesty"],
  [/\b(prince|princess)\b/i, "Your Highness", "Your Highness"],
  [/\bmatriarch\b/i, "Matriarch", "Matriarch"],
  [/\bpatriarch\b/i, "Patriarch", "Patriarch"],
  [/\bdeputy\b/i, "Deputy", "Deputy"],
  [/\bdisciple\b/i, undefined, "disciple"],
  [/\bstudent\b/i, undefined, "transfer student"],
  [/\b(unknown|newcomer|rookie|hopeful)\b/i, undefined, "newcomer"],
];

/** Who the player is: "decides what the Empress Dowager says", or the opening's "You are a sixteen-year-old outer disciple…". */
function readPlayer(prompt: string, opening: string | undefined): Player {
  const decides = /decides what (the [A-Z][\p{L}'-]*(?: [A-Z][\p{L}'-]*)*) says\b/u.exec(prompt)?.[1];
  const youAre = /\byou are (?:now |his |her |their )?((?:the|a|an) [^,.;:]+?)(?=[,.;:]| with | who | sharing | arriving | and )/i.exec(
    opening ?? "",
  )?.[1];
  const role = decides ?? youAre?.replace(/\b(?:\w+-year-old|\d+-year-old)\s+/g, "").replace(/^a (?=[aeiou])/i, "an ");
  const [, honorific, vocative] = HONORIFICS.find(([pattern]) => role && pattern.test(role)) ?? [undefined, undefined, undefined];
  // "If they have not given a name, open the scene anyway… (the name on their outer disciple token is worn smooth)".
  const opensName = /\bif they have not given a name\b/i.test(prompt);
  const hint = opensName ? /\bif they have not given a name[^(]*\(([^)]*\bname[^)]*)\)/i.exec(prompt)?.[1] : undefined;
  const nameInvitation = opensName
    ? hint
      ? `${hint.charAt(0).toUpperCase()}${hint.slice(1).replace(/\btheir\b/g, "your")}.`
      : "No one here knows your name yet."
    : undefined;
  return { role, honorific, vocative, nameInvitation };
}

const NAME_RUN = /([A-Z][\p{L}'’.-]*(?:\s+[A-Z][\p{L}'’.-]*)*)/u;
const RELATIVE = /^(?:and\s+)?(?:his|her|their)\s+(son|daughter|father|mother|brother|sister|husband|wife|nephew|niece|uncle|aunt)\s+/i;

/**
 * The cast a prompt lists: "Key figures: Rong Yuan, the Tianyou Emperor (8, …); Grand Empress
 * Dowager Hua (61, …); …", "Characters: …", "The household: …", "The children: Isolde (19, …),
 * Maelis (17, …) and Wren (6, …)", "Staff: Steward Mattias Crane and Mistress Perrine, …".
 */
function promptCast(prompt: string): Entity[] {
  const cast: Entity[] = [];
  const lists = /\b(?:key figures|characters|cast|also|the household|household|the children|children|staff|outside|family|rivals)\s*:\s*/gi;
  for (const match of prompt.matchAll(lists)) {
    const start = match.index + match[0].length;
    const tail = prompt.slice(start).split("\n")[0] ?? "";
    // The list ends at the first full stop outside parentheses that is not a title's ("Mr.").
    let depth = 0;
    let end = tail.length;
    for (let index = 0; index < tail.length; index += 1) {
      const character = tail[index];
      if (character === "(") depth += 1;
      else if (character === ")") depth = Math.max(0, depth - 1);
      else if (character === "." && depth === 0 && !/\b(?:Mr|Mrs|Ms|Dr|St)$/.test(tail.slice(0, index)) && /^(\s|$)/.test(tail.slice(index + 1))) {
        end = index;
        break;
      }
    }
    const list = tail.slice(0, end);
    const segments = list.includes(";") ? list.split(";") : splitOutsideParentheses(list);
    for (const raw of segments) readCastSegment(raw.trim().replace(/^and\s+/i, ""), cast);
  }
  return cast;
}

/** "A (19, …), B (17, …) and C (6, …)" → its people; a comma inside parentheses or before lower-case words stays. */
function splitOutsideParentheses(list: string) {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (let index = 0; index < list.length; index += 1) {
    const character = list.charAt(index);
    if (character === "(") depth += 1;
    if (character === ")") depth = Math.max(0, depth - 1);
    const rest = list.slice(index);
    const splitsHere = depth === 0 && (/^\s+and\s+[A-Z]/.test(rest) || (/^,\s+(?:and\s+)?[A-Z]/.test(rest) && /\)\s*$/.test(current)));
    if (splitsHere) {
      parts.push(current);
      current = "";
      continue;
    }
    current += character;
  }
  parts.push(current);
  return parts;
}

function readCastSegment(segment: string, cast: Entity[]) {
  // "Consort Qiao (22, …) and her father Qiao Bingzhi, Minister of Revenue": two people.
  const relative = /^(.*?\))\s+and\s+((?:his|her|their)\s+\w+\s+.*)$/i.exec(segment);
  const main = relative ? (relative[1] ?? "") : segment;
  const name = NAME_RUN.exec(main.replace(/\([^)]*\)/g, " "))?.[1]?.replace(/\.$/, "");
  if (!name || /^(The|A|An)$/.test(name)) return;
  const core = name
    .split(/\s+/)
    .filter((word) => !TITLE_WORDS.has(word.toLowerCase()))
    .join(" ");
  if (!core || PLACE_WORDS.test(core) || GROUP_WORDS.test(core)) return;
  const single = !name.includes(" ");
  // A one-word name is a person only when an age or description follows it in parentheses.
  if (single && !new RegExp(`${escapeRegExp(name)}\\s*\\(`).test(main)) return;
  // A description in parentheses right after the name is the description ("Marquis Mu Tieyan (the boy's uncle, …)").
  const after = main
    .slice(main.indexOf(name) + name.length)
    .replace(/^[\s,]+/, "")
    .replace(/\.$/, "")
    .replace(/^\(((?!\d)[^)]*)\)/, "$1");
  const detail = cleanDetail(after).replace(/^,\s*/, "");
  addUnique(cast, { name, detail });
  if (relative) {
    const kin = RELATIVE.exec(relative[2] ?? "");
    const rest = (relative[2] ?? "").replace(RELATIVE, "");
    const kinName = NAME_RUN.exec(rest.replace(/\([^)]*\)/g, " "))?.[1];
    if (kin && kinName) {
      const after = cleanDetail(rest.slice(rest.indexOf(kinName) + kinName.length).replace(/^[\s,]+/, "")).replace(/^,\s*/, "");
      addUnique(cast, { name: kinName, detail: [`${shortName(name)}'s ${(kin[1] ?? "").toLowerCase()}`, after].filter(Boolean).join(", ") });
    }
  }
}

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

/** "The Cold Palace: a quiet courtyard…" → "The Cold Palace is a quiet courtyard…", as a sentence a narrator can say. */
export function statement(entity: Entity, { person = false, glossary = false } = {}): string | undefined {
  let detail = entity.detail.replace(/[.!?]?$/, ".");
  if (!entity.detail) return undefined;
  const name = entity.name.charAt(0).toUpperCase() + entity.name.slice(1);
  // "Iron Gate Pass, the only road…" → "Iron Gate Pass is the only road…", unless a verb follows ("Xue Wuya, the Saintess, knows…").
  const appositive = /^,\s+((?:the|a|an|home|seat|domain|for|\w+ly)\b.*|[A-Z][\p{L}'’ -]*'s\b.*)$/u.exec(detail);
  if (appositive && !/,\s+(?!who\b|which\b|where\b)[a-z]+s\b/.test(appositive[1] ?? "")) detail = appositive[1] ?? detail;
  else if (/^,\s+where\b/.test(detail)) detail = detail.replace(/^,\s+/, "");
  else if (detail.startsWith(",")) return `${name}${detail}`;
  // "Blood Lotus Sect and its Saintess Xue Wuya" names two things and says nothing of either.
  if (!person && /^and\b/.test(detail)) return undefined;
  if (/^where\b/.test(detail)) return `${name} is ${detail}`;
  if (/^(which|whose|who|that)\b/.test(detail)) return `${name}, ${detail}`;
  // A trouble reads as a glossary entry ("Consort rivalry: a seat at the head of the table, …").
  if (glossary && !PERSON_DETAIL.test(detail) && !/^(in|at|on|of|with)\b/.test(detail)) return `${name}: ${detail}`;
  // "The Temple of the Undying Lamp on the Isle of Vigils, where…" → "… is on the Isle of Vigils, where…".
  if (!glossary && !person && /^(in|at|on|beside|behind|beneath|near|inside|east|west|north|south)\b/.test(detail)) {
    return `${name} ${/[^s]s$/.test(shortName(entity.name)) ? "are" : "is"} ${detail}`;
  }
  if (/^(are|were|sits|lies|stands|in|at|on|from|for|with|of|to)\b/.test(detail) || PERSON_DETAIL.test(detail)) return `${name} ${detail}`;
  const article =
    /^(a|an|the|your|his|her|their|its|one|two|three|home|seat|domain|keeper|keepers|leader|head|master|mistress|mother|father|son|daughter)\b/;
  // "Empty coffers: the Northern Army's winter pay is 400,000 taels short" is a clause, not a description.
  const head = detail.split(/,|;|\b(?:where|which|who|whose|that)\b/)[0] ?? "";
  const clause = /\b(is|are|was|were|has|have|probe|posts?)\b/.test(head);
  if (!clause && (article.test(detail) || /^[\w-]+ years old\b/.test(detail) || /^[A-Z][\p{L}'’-]*'s\b/u.test(detail))) {
    const plural = /[^s]s$/.test(shortName(entity.name)) && !/\b(pass|marches|mass)$/i.test(entity.name);
    // "Plots are a second prince…" reads wrong; "Plots: a second prince…" does not.
    if (!(plural && /^(a|an|one)\b/i.test(detail))) return `${name} ${plural ? "are" : "is"} ${detail}`;
  }
  // A person's title or trade ("Prince of Jing, thirty years old, …"; "a dry-witted pianist of the Astronomy Club").
  if (person) {
    const first = detail.split(",")[0] ?? "";
    const needsArticle =
      /^[a-z]/.test(detail) && first.split(/\s+/).length >= 2 && !/^(an?|the|your|his|her|their|its|one|\w+ years old)\b/.test(first);
    return `${name} is ${needsArticle ? (/^[aeiou]/i.test(detail) ? "an " : "a ") : ""}${detail}`;
  }
  return `${name}: ${detail}`;
}

/** The sentences of the world's content and of the prompt's "The world: …" paragraph, as the player's "you". */
function readKnowledge(brief: StoryBrief, statLabels: string[], castNames: Set<string>): string[] {
  const found: string[] = [];
  const add = (sentence: string) => {
    const clean = stripMarkdown(playerAsYou(sentence))
      .replace(/"([^"]*)"/g, "“$1”")
      .replace(/\s+/g, " ")
      .replace(/\s*\((?:the |an? )?[^)]*\)/g, "")
      .trim();
    if (clean.length < 25 || clean.length > 320) return;
    if (isAboutTheGame(clean, statLabels, brief.title)) return;
    if (!/[.!]$/.test(clean)) return;
    if (!found.includes(clean)) found.push(clean);
  };
  for (const section of brief.sections) {
    // Stats and rules are about the game; a challenge list is the only part of its rules a story tells.
    if (section.contentType === "character_progression") continue;
    for (const block of section.content.split(/\n\s*\n/)) {
      for (const line of block.split("\n")) {
        if (/^#{1,6}\s/.test(line.trim())) continue;
        if (section.contentType === "combat_mechanics" && !/^\s*[-*+]\s/.test(line)) continue;
        const bullet = /^\s*[-*+]\s+\*\*([^*]+?)\*\*\s*[:—–-]?\s*(.*)$/.exec(line);
        if (bullet) {
          // "- **The Cold Palace**: a quiet courtyard…. Second sentence." → a statement, then the rest as written.
          const [first = "", ...rest] = splitSentences(stripMarkdown(bullet[2] ?? ""));
          const said = statement(
            { name: (bullet[1] ?? "").replace(/[.:,]$/, ""), detail: cleanDetail(playerAsYou(first)) },
            { glossary: section.contentType === "combat_mechanics" },
          );
          if (said) add(said);
          rest.forEach(add);
          continue;
        }
        splitSentences(line.replace(/^\s*[-*+]\s+/, "")).forEach(add);
      }
    }
  }
  // "The world: the capital Anxiang on the Jade Belt River; the Palace of Ninefold Clouds, with …": one fact per part.
  for (const paragraph of promptParagraphs(brief.prompt)) {
    if (!/^the world\s*:/i.test(paragraph)) continue;
    for (const sentence of splitSentences(paragraph.replace(/^the world\s*:\s*/i, "").replace(/\s*\([^)]*\)/g, ""))) {
      if (/\b(key figures|characters|also|the household|the children|staff|outside)\s*:/i.test(sentence)) continue;
      for (const part of sentence.split(";")) {
        const text = part.trim().replace(/^and\s+/i, "");
        // "Places: the Misty Beast Forest, …" lists what the content describes better; a part without a verb is a label.
        if ([...castNames].some((name) => text.startsWith(name)) || /^[A-Z][\w ]{0,20}:\s/.test(text)) continue;
        const verb =
          /\b(is|are|was|were|has|have|had|keeps?|holds?|needs?|rules?|lies|lie|stands?|runs?|sits?|governs?|leads?|opens?|earns?|guards?|serves?|sells?|buys?)\b/.exec(
            text,
          );
        if (!verb || (text.slice(0, verb.index).match(/,/g) ?? []).length >= 2) continue;
        add(`${text.charAt(0).toUpperCase()}${text.slice(1)}`.replace(/[.]?$/, "."));
      }
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
