import { escapeRegExp } from "./text.server.ts";
import type { Entity } from "./world.server.ts";

/**
 * Names as a narrator uses them: the words that make a name a place, a group or an event, the
 * titles that go with a person's name, and the forms a text may name someone by.
 */

export const PLACE_WORDS =
  /\b(hall|palace|pavilion|street|mile|row|pier|canyon|library|tower|clocktower|room|courtyard|caf[eé]|gate|pass|province|marches|garden|office|city|temple|market|harbou?r|bay|hill|academy|observatory|tree|ginkgo|kettle|walk|dormitory|capital|river|mountain|peak|summit|valley|forest|manor|estate|quarter|district|square|bridge|lake|sea|island|isle|shrine|tavern|inn|campus|gymnasium|station|theater|theatre|club house|residence|chamber|wing|archive|vault|ruins?|castle|weir|keep|fort|fortress|port|villa|palazzo|abbey|cathedral|exchange|plaza|docks?|wharf|quay|marsh|realm|arena|stage|fields?|abodes?|town|village|greymarch|march)\b/i;
export const GROUP_WORDS =
  /\b(pictures|records|group|club|team|council|clan|clans|house|sect|order|guild|faction|stream|guard|army|eunuchs|ministry|confederacy|ledger|street press|company|society|family|league|alliance|union|bank|crown|hearths|temple)\b/i;
/** Happenings, not things one can visit or talk to: facts only. */
export const EVENT_WORDS =
  /\b(assessment|tournament|festival|rite|exams?|ceremony|election|masque|ball|vigil|reckoning|season|crowns|path|disciple|rival|stranger|friend|hand|reformer|mother of|keeper|weaver|matriarch|darling|mogul|phenomenon|artist|regent)\b/i;
export const PERSON_DETAIL =
  /^(,|and\b|is\b|was\b|starts\b|can\b|will\b|plays\b|wants\b|arrives\b|has\b|who\b|keeps\b|hides\b|respects\b|would\b|makes\b|handles\b|runs\b|teaches\b|calls\b|leads\b|guards\b|holds\b|insists\b|narrates\b|knows\b|loves\b)/i;
export const TITLE_WORDS = new Set(
  "chief grand prince princess minister consort commander madam lady lord empress dowager imperial tutor censor marquis emperor king queen general master elder senior junior student council president headmistress headmaster professor doctor captain mr mrs ms miss sir the of and first second third fourth steward mistress deacon sect manager saintess high lampwarden khagan harbormaster matriarch patriarch eunuch chancellor duke duchess count countess baron baroness magistrate admiral sergeant coach abbot abbess".split(
    " ",
  ),
);

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

export function addUnique(list: Entity[], entity: Entity) {
  const key = coreName(entity.name).toLowerCase();
  if (!key || list.some((existing) => coreName(existing.name).toLowerCase() === key)) return;
  list.push(entity);
}

export function looksLikePersonName(name: string) {
  const words = name
    .replace(/["“”'‘’()]/g, " ")
    .split(/[\s,]+/)
    .filter(Boolean);
  if (words.length < 2 || words.length > 7 || /^the\b/i.test(name)) return false;
  return words.every((word) => /^[A-Z]/.test(word) || TITLE_WORDS.has(word.toLowerCase()));
}
