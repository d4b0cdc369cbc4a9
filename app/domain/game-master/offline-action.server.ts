import { chosenAction } from "../../lib/story-choices.ts";
import { coreName, escapeRegExp, nameForms, splitSentences, type Entity, type World } from "./offline-world.server.ts";

/**
 * The player's message as the offline storyteller understands it: a choice picked by number or
 * by its text, a name given, a question asked (and about what), or an action — going somewhere,
 * talking to someone, looking closer, resting — told back in the narrator's second person.
 */
export type ActionKind =
  | "ready"
  | "self"
  | "name"
  | "question"
  | "recall"
  | "advice"
  | "travel"
  | "talk"
  | "investigate"
  | "rest"
  | "wait"
  | "speech"
  | "challenge"
  | "act"
  | "hesitate";

export type Tone = "kind" | "harsh" | "neutral";

export interface PlayerAction {
  kind: ActionKind;
  /** The message, or the text of the choice it picked. */
  text: string;
  /** The player picked one of the offered choices (by its number or its text). */
  chosen: boolean;
  /** What the player did, as the story tells it ("You go to the Cold Palace."); none for a bare question. */
  told: string | undefined;
  /** A name the player gave themselves in this message. */
  name: string | undefined;
  /** Who the message is addressed to or about. */
  person: Entity | undefined;
  /** A group it addresses (answered by someone who speaks for it). */
  group: Entity | undefined;
  place: Entity | undefined;
  challenge: Entity | undefined;
  /** What a question asks about, in the player's words ("the Jade Seal"). */
  subject: string | undefined;
  tone: Tone;
  /** The action spends or earns money (the status line's purse moves). */
  money: "spend" | "earn" | undefined;
}

const READY = /^(yes|yeah|yep|ok(ay)?|sure|ready|i('| a)m ready|let'?s (go|begin|start|play)|begin|start|go|of course|absolutely)\b[^?]*$/i;

const POSITIVE =
  /\b(help|thank|gift|kind|gentl|pardon|merc|apolog|listen|comfort|stud|rehears|practi|rest|honest|visit|protect|support|prais|share|teach|learn|train|forgiv|console|reassur|invite|celebrat|care|heal|feed|donat|relief|pray|respect|bow|compliment|encourag|favour|favor)\w*/gi;
const RISKY =
  /\b(threat|forc|arrest|execut|punish|lie|lying|insult|brib|steal|spy|spie|blackmail|humiliat|refus|ignor|skip|fight|slap|exile|demand|confront|accus|purg|dismiss|seiz|confiscat|sabotag|mock|shout|storm|poison|betray|deceiv|manipulat|expos|leak)\w*/gi;
const SPENDING = /\b(gift|brib|buy|bought|pay|paid|spend|spent|donat|relief|reward|hire|fund|feast|banquet)\w*/i;
const EARNING = /\b(earn|sell|sold|tax|confiscat|seiz|collect|salary|paycheck|contract|win|won)\w*|\b(?:a|the|brand|record|book)\s+deal\b/i;

const VERBS: Record<
  Exclude<ActionKind, "ready" | "self" | "name" | "question" | "recall" | "advice" | "speech" | "challenge" | "hesitate">,
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
const IMPERATIVE = new Set([
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

function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function lowerFirst(text: string) {
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
  const [first = "", second = ""] = clean.split(/[\s,]+/);
  const lead = first.toLowerCase();
  if (IMPERATIVE.has(lead) || (/ly$/.test(lead) && IMPERATIVE.has(second.toLowerCase()))) return `You ${lowerFirst(toSecondPerson(clean))}`;
  if (/(^|[^“\w])I\b/.test(clean.replace(/“[^”]*”/g, ""))) return capitalise(toSecondPerson(clean));
  // Anything else ("No.", "The Jade Seal") is something the player says.
  return `You say: “${clean.replace(/[“”]/g, "")}”`;
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

function mentionScore(entity: Entity, text: string, person: boolean) {
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

// ---------------------------------------------------------------------------------------------
// Questions

const INTERROGATIVE = /^(who|what|where|when|why|how|which|whose|tell me|explain|describe)\b/i;
const AUXILIARY = /^(is|are|was|were|do|does|did|can|could|should|would|will|may|might|has|have|had|am)\b/i;

function subjectOf(question: string): string | undefined {
  const clean = question.replace(/[“”"?!.]/g, "").trim();
  const patterns = [
    /\b(?:know|tell me|hear|heard|learn|learned|say|said|ask(?:\s+\S+)?)\s+about\s+(.+)/i,
    /\babout\s+(.+)/i,
    /\baccount of\s+(.+)/i,
    /\b(?:who|what|where|which)(?:'s|\s+(?:is|are|was|were))\s+(.+)/i,
    /\b(?:what|who|why|how)\s+(?:does|do|did|is|are|can|could|should|would)\s+(.+?)\s+(?:want|do|know|think|mean|need|plan|hide|feel|doing|planning)\b/i,
    /\b(?:trust|believe|rely on|fear)\s+(.+)/i,
    /^(?:explain|describe)\s+(.+)/i,
  ];
  for (const pattern of patterns) {
    const found = pattern.exec(clean)?.[1]?.trim();
    if (found) return found.replace(/\s+(?:really|now|here|today|again)$/i, "");
  }
  return undefined;
}

function questionIn(text: string): string | undefined {
  const quoted = /[“"]([^”"]*\?)[”"]/.exec(text)?.[1];
  if (quoted) return quoted;
  const trimmed = text.trim();
  if (/\?\s*$/.test(trimmed)) return splitSentences(trimmed).at(-1) ?? trimmed;
  if (INTERROGATIVE.test(trimmed)) return trimmed;
  // "Can I trust Consort Qiao" and "Is the seal safe", question mark or not; "Do nothing" is an order.
  if (AUXILIARY.test(trimmed) && /^\w+\s+(?:I|you|he|she|we|they|it|there|this|that|anyone|someone)\b/i.test(trimmed)) return trimmed;
  if (/^(?:is|are|was|were)\s+(?:the\s+|[A-Z])/i.test(trimmed)) return trimmed;
  if (/^(?:I\s+)?(?:ask|inquire|enquire)\b.*\b(about|whether|if|who|what|where|why|how|for (?:a full )?account|for advice)\b/i.test(trimmed))
    return trimmed;
  if (/\b(?:what do I know|do I know anything|I (?:try to )?(?:recall|remember))\b/i.test(trimmed)) return trimmed;
  return undefined;
}

function leadVerb(text: string) {
  const words = text
    .replace(/^[“"]/, "")
    .split(/[\s,]+/)
    .map((word) => word.toLowerCase().replace(/[^a-z']/g, ""));
  let index = words[0] === "i" || words[0] === "we" ? 1 : 0;
  if (/ly$/.test(words[index] ?? "") && !IMPERATIVE.has(words[index] ?? "")) index += 1;
  if (words[index] === "then" || words[index] === "quietly") index += 1;
  return words[index] ?? "";
}

function kindOfVerb(verb: string): ActionKind | undefined {
  const stem = (word: string) => word.replace(/(ing|ed|es|s)$/, "");
  for (const [kind, verbs] of Object.entries(VERBS) as [ActionKind, string[]][]) {
    if (verbs.includes(verb) || verbs.some((candidate) => stem(candidate) === stem(verb))) return kind;
  }
  return undefined;
}

/** Everything the world names, for finding what a message is about. */
function named(world: World) {
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
function withoutThings(world: World, text: string) {
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

/**
 * Reads the player's message. `lastChoices` are the choices the previous reply offered: "2", "2."
 * or a choice's exact text picks that choice.
 */
export function readAction(
  world: World,
  message: string,
  { lastChoices, firstTurn }: { lastChoices: string[]; firstTurn: boolean },
): PlayerAction {
  const typed = message.trim();
  const picked = /^(?:i\s+)?(?:choose|pick|take|select|go with|option|choice|number)\s*#?\s*(\d{1,2})[.)]?$/i.exec(typed)?.[1];
  const text = picked !== undefined ? (lastChoices[Number(picked) - 1] ?? typed) : chosenAction(typed, lastChoices);
  const chosen = lastChoices.includes(text);
  const tone: Tone = (() => {
    const kind = text.match(POSITIVE)?.length ?? 0;
    const harsh = text.match(RISKY)?.length ?? 0;
    return harsh > kind ? "harsh" : kind > 0 ? "kind" : "neutral";
  })();
  const base: PlayerAction = {
    kind: "act",
    text,
    chosen,
    told: undefined,
    name: undefined,
    person: undefined,
    group: undefined,
    place: undefined,
    challenge: undefined,
    subject: undefined,
    tone,
    money: SPENDING.test(text) ? "spend" : EARNING.test(text) ? "earn" : undefined,
  };

  // A number that matches no offered choice: the player hesitates, and the story waits with them.
  if (!chosen && (picked !== undefined || /^(?:#\s*)?\d{1,2}[.)]?$/.test(typed)))
    return { ...base, kind: "hesitate", told: "You hesitate, weighing the paths in front of you." };
  if (firstTurn && READY.test(typed) && !declaredName(typed, world)) return { ...base, kind: "ready" };

  // A name given, and whatever else the message does.
  const name = declaredName(text, world);
  const rest = name
    ? splitSentences(text)
        .filter((sentence) => declaredName(sentence, world) === undefined && !READY.test(sentence))
        .join(" ")
    : text;
  if (name && !rest.trim()) return { ...base, kind: "name", name };

  const withoutName = name ? rest.replaceAll(name, "") : rest;
  const person = mentioned(world.people, withoutThings(world, withoutName), { people: true })[0];
  const group = mentioned(world.groups, withoutName)[0];
  const place = mentioned(world.places, withoutName)[0];
  const challenge = mentioned(world.challenges, withoutName)[0];
  const found = { ...base, name, text: rest, person, group, place, challenge };

  // "Who am I?": the story reminds the player who they are.
  if (/\b(?:who|what) am I\b|\bwho I am\b|\bremind me who\b/i.test(rest)) return { ...found, kind: "self" };

  const question = questionIn(rest);
  if (question) {
    // "I ask Oren about the crates. “Who paid you?”": about the crates, put to Oren.
    const subject = subjectOf(rest.replace(/[“"][^”"]*[”"]/g, "")) ?? subjectOf(question);
    const asking = /^(?:I\s+)?(?:ask|inquire|enquire|question|turn to)\b/i.test(rest) || /^I\b.*[“"][^”"]*\?[”"]/.test(rest);
    const told = asking ? tellAction(rest) : undefined;
    const addressee = asking
      ? mentioned(world.people, withoutThings(world, rest.split(/\babout\b|[“"]/i)[0] ?? ""), { people: true })[0]
      : undefined;
    if (/\b(?:what do I know|do I know anything|I (?:try to )?(?:recall|remember))\b/i.test(rest))
      return { ...found, kind: "recall", subject, told: undefined };
    const advice = (!subject && !addressee) || /\bfor advice\b|\bwhat (?:should|shall|must|can) I do\b/i.test(question);
    return { ...found, kind: advice ? "advice" : "question", subject, person: addressee ?? (advice ? person : undefined), told };
  }

  const told = tellAction(rest);
  const verb = leadVerb(rest);
  if (/^[“"]/.test(rest.trim()) || /^say\b/.test(verb)) return { ...found, kind: "speech", told };
  if (/^write$/.test(verb) && /\bwrite down\b/i.test(rest)) return { ...found, kind: "investigate", told };
  let kind = kindOfVerb(verb);
  // "Take a moment for yourself: rest, regroup…".
  if (verb === "take" && /\b(rest|sleep|a moment for yourself)\b/i.test(rest)) kind = "rest";
  if (kind === "travel" && !place) {
    // "I go to the kitchens": a place the world does not name is still somewhere to be.
    const destination = /\b(?:to|into|toward|towards)\s+((?:the\s+)?[\p{L}' -]{3,40}?)(?:[.,;!]|\s+(?:and|to|for|with)\b|$)/iu.exec(rest)?.[1];
    const known = destination ? mentioned(world.people, destination, { people: true })[0] : undefined;
    if (known) kind = "talk";
    else if (destination && /^(?:sleep|bed|rest)$/i.test(destination.trim())) kind = "rest";
    else if (destination) return { ...found, kind: "travel", told, place: { name: toSecondPerson(destination.trim()), detail: "" } };
    else kind = undefined;
  }
  if (kind === "talk" || (kind === undefined && (person || group))) {
    if (person || group) return { ...found, kind: "talk", told, person: person ?? (group ? spokesperson(world, group) : undefined) };
    if (place) return { ...found, kind: "travel", told };
  }
  if (kind === "investigate" || kind === "rest" || kind === "wait" || kind === "travel") return { ...found, kind, told };
  if (challenge) return { ...found, kind: "challenge", told };
  if (place) return { ...found, kind: "travel", told };
  return { ...found, kind: "act", told };
}
