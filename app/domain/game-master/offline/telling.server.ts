import type { ActionKind } from "./action.server.ts";
import { coreName } from "./names.server.ts";
import { splitSentences } from "./text.server.ts";
import type { World } from "./world.server.ts";

/** The player's words as the narrator tells them back: in the second person, briefly, and the name a message gives. */

export const VERBS: Record<
  Exclude<ActionKind, "ready" | "self" | "name" | "question" | "recall" | "advice" | "speech" | "challenge" | "hesitate" | "narration">,
  string[]
> = {
  travel:
    "go goes going went walk head travel return ride run enter leave arrive hurry climb withdraw slip retreat sneak cross proceed come move wander stroll march set flee escape drive fly sail".split(
      " ",
    ),
  investigate:
    "look search investigate examine inspect read study check spy watch observe listen learn research explore scout survey review peer eavesdrop probe find".split(
      " ",
    ),
  rest: "rest sleep nap relax meditate pause sit eat drink bathe breathe recover doze".split(" "),
  wait: "wait hide bide linger stay delay".split(" "),
  talk: "talk speak tell invite summon send confront thank greet bow offer promise call meet apologise apologize praise comfort warn threaten flirt kneel answer reply persuade convince console reassure introduce visit keep sound approach beg plead order command reprimand scold forgive pardon dismiss accuse embrace hug".split(
    " ",
  ),
  act: [],
};

/** Words that open an order or an action, so "Summon the guard" is told as "You summon the guard." */
export const IMPERATIVE = new Set([
  ...Object.values(VERBS).flat(),
  ..."deal find make take give spend write sign seal decree announce declare arrest pay buy sell train practise practice cultivate refine brew forge draw light open close push press follow gather prepare plan organise organize host hold throw accept refuse reject agree propose marry seal break burn hand grant allow forbid ban raise lower help use try begin start continue stop ask request demand question join challenge duel fight attack defend protect guard save free release feed heal pray bless curse steal bribe blackmail poison expose publish post record film sing perform rehearse audition dance bake cook clean sweep".split(
    " ",
  ),
]);

const FIRST_TO_SECOND: [RegExp, string][] = [
  [/\bI am\b/g, "you are"],
  [/\bI'm\b/gi, "you're"],
  [/\bI was\b/g, "you were"],
  [/\bI've\b/gi, "you've"],
  [/\bI'll\b/gi, "you'll"],
  [/\bI'd\b/gi, "you'd"],
  [/\bI\b/g, "you"],
  [/\bmyself\b/gi, "yourself"],
  [/\bmy\b/gi, "your"],
  [/\bmine\b/gi, "yours"],
  [/\bme\b/gi, "you"],
  [/\bwe\b/gi, "you"],
  [/\bour\b/gi, "your"],
  [/\bus\b/g, "you"],
];

/** "I bow and say "Thank you, Minister."" → "you bow and say "Thank you, Minister."" (quotes untouched). */
export function toSecondPerson(text: string) {
  return text
    .split(/("[^"]*"|“[^”]*”)/)
    .map((part, index) =>
      index % 2 === 1 ? part : FIRST_TO_SECOND.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), part),
    )
    .join("");
}

export function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function lowerFirst(text: string) {
  // "Invite Rong Shu…" → "invite Rong Shu…", but a name or "I" keeps its capital.
  return /^[A-Z][a-z]/.test(text) && IMPERATIVE.has((text.split(/\W/)[0] ?? "").toLowerCase())
    ? text.charAt(0).toLowerCase() + text.slice(1)
    : text;
}

/** Curly quotes and no stray Markdown, so the player's words sit in the story like the narrator's own. */
function tidy(text: string) {
  return text
    .replace(/[*_`#[\]{}<>]/g, "")
    .replace(/"([^"]*)"/g, "“$1”")
    .replace(/\s+/g, " ")
    .trim();
}

function excerpt(text: string) {
  let words = splitSentences(text).slice(0, 2).join(" ");
  const list = words.split(" ");
  if (list.length > 45)
    words = `${list
      .slice(0, 45)
      .join(" ")
      .replace(/[,;:]$/, "")}…`;
  if (!/[.!?…”]$/.test(words)) words += ".";
  return words;
}

const FIRST_PERSON_START = /^(I|I'm|I'll|I've|I'd|my|me|we|our)\b/i;

/** The player's action, briefly, in the narrator's second person. */
export function tellAction(action: string): string {
  const clean = excerpt(tidy(action));
  if (/^“/.test(clean)) {
    const outside = clean.replace(/“[^”]*”/g, "");
    return /\b(I|my|me)\b/.test(outside) ? capitalise(toSecondPerson(clean)) : `You say: ${clean}`;
  }
  if (FIRST_PERSON_START.test(clean)) return capitalise(toSecondPerson(clean));
  // Do mode sends the action already in the second person ("You draw your sword.").
  if (/^you\b/i.test(clean)) return capitalise(clean);
  const [first = "", second = ""] = clean.split(/[\s,]+/);
  const lead = first.toLowerCase();
  if (IMPERATIVE.has(lead) || (/ly$/.test(lead) && IMPERATIVE.has(second.toLowerCase()))) return `You ${lowerFirst(toSecondPerson(clean))}`;
  if (/(^|[^“\w])I\b/.test(clean.replace(/“[^”]*”/g, ""))) return capitalise(toSecondPerson(clean));
  // Anything else ("No.", "The Jade Seal") is something the player says.
  return `You say: “${clean.replace(/[“”]/g, "")}”`;
}

/** How a narration line usually opens ("The doors burst open…", "Outside, rain begins…"). */
const NARRATION_START =
  /^(The|A|An|He|She|They|It|Its|His|Her|Their|Someone|Somebody|Everyone|Nobody|Suddenly|Outside|Meanwhile|Then|Later|Behind|Across|Above|Below|Far|Somewhere|Rain|Snow|Thunder|Night|Dawn|Dusk)\b/;

/**
 * A line the player wrote as narration (Story mode, issue 35): what happens, told in the third
 * person ("The doors burst open and a messenger runs in."), rather than an action of theirs, a
 * question or words they say. `opensWithSomeone` says the line opens with a person's name.
 */
export function isNarration(text: string, opensWithSomeone = false): boolean {
  const clean = text.trim();
  const words = clean.split(/\s+/);
  if (/\?/.test(clean) || /^[“"]/.test(clean) || words.length < 4 || FIRST_PERSON_START.test(clean) || /^you\b/i.test(clean)) return false;
  // A verb in the third person or the past after the opening words: "bursts", "runs", "arrived".
  const verb = words.slice(1).some((word) => /^[a-z]+(?:[^s]s|ed)[,.;!]?$/.test(word));
  return verb && (opensWithSomeone || NARRATION_START.test(clean));
}

/** A narration line as the story tells it: as the player wrote it, tidied and briefly. */
export function tellNarration(text: string) {
  return capitalise(excerpt(tidy(text)));
}

// ---------------------------------------------------------------------------------------------
// Names

const NOT_A_NAME =
  /^(ready|sorry|here|fine|ok|okay|not|just|so|very|the|a|an|your|yes|no|afraid|glad|happy|tired|sure|back|home|done|going|trying|listening|waiting|coming|new|old|only|also|still|now|in|at|on|with|from|of|to|an?|his|her|their|this|that|what|who|empress|dowager|matriarch|disciple|student|regent|majesty)$/i;
const NAME = String.raw`([\p{Lu}][\p{L}'’-]+(?:\s+[\p{Lu}][\p{L}'’-]+){0,2})`;
const NAME_ANY_CASE = String.raw`([\p{L}][\p{L}'’-]+(?:\s+[\p{Lu}][\p{L}'’-]+){0,2})`;
const DECLARATIONS = [
  new RegExp(String.raw`\bmy name(?:'s| is)\s+${NAME_ANY_CASE}`, "iu"),
  new RegExp(
    String.raw`\b(?:call me|they call me|you may call me|i am called|i'm called|i go by|known as|introduce myself as|give my name as)\s+${NAME_ANY_CASE}`,
    "iu",
  ),
  new RegExp(String.raw`\b(?:I am|I'm)\s+${NAME}(?=\s*(?:[,.!;:—–-]|$|\s+(?:of|from|and)\b))`, "u"),
  new RegExp(String.raw`^${NAME}\s+is my name\b`, "u"),
];

/** The name a message gives the player ("My name is Lin.", "I am Lin, of the Wen clan."), if any. */
export function declaredName(message: string, world?: World): string | undefined {
  for (const pattern of DECLARATIONS) {
    const found = pattern.exec(message)?.[1];
    if (!found) continue;
    const words = found.split(/\s+/).filter((word) => !NOT_A_NAME.test(word));
    if (words.length === 0 || words.length !== found.split(/\s+/).length) {
      // "I am Lin and I bow": keep the leading name words only.
      const leading: string[] = [];
      for (const word of found.split(/\s+/)) {
        if (NOT_A_NAME.test(word)) break;
        leading.push(word);
      }
      if (leading.length === 0) continue;
      words.splice(0, words.length, ...leading);
    }
    const name = words.map(capitalise).join(" ");
    // "I am Rong Yuan's stepmother" names someone else.
    if (world?.people.some((person) => coreName(person.name) === name)) continue;
    if (name.length >= 2 && name.length <= 40) return name;
  }
  return undefined;
}
