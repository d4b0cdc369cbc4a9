import { chosenAction } from "../../../lib/story-choices.ts";
import { addressedPerson, mentioned, personNamedInKnowledge, spokesperson, withoutThings } from "./mentions.server.ts";
import { declaredName, IMPERATIVE, isNarration, tellAction, tellNarration, toSecondPerson, VERBS } from "./telling.server.ts";
import { splitSentences } from "./text.server.ts";
import { type Entity, type World } from "./world.server.ts";

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
  | "hesitate"
  | "narration";

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
  let index = words[0] === "i" || words[0] === "we" || words[0] === "you" ? 1 : 0;
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

export function readAction(
  world: World,
  message: string,
  { lastChoices, firstTurn }: { lastChoices: string[]; firstTurn: boolean },
): PlayerAction {
  // Say mode sends `You say, "…"` (issue 35): the words are speech, as if typed in quotes.
  const said = /^you say,?\s*["“]([\s\S]*?)["”]?\s*$/i.exec(message.trim())?.[1];
  const typed = said === undefined ? message.trim() : `“${said}”`;
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
  const person = mentioned(world.people, withoutThings(world, withoutName), { people: true })[0] ?? personNamedInKnowledge(world, withoutName);
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
    const addressee =
      addressedPerson(world, rest) ??
      (asking ? mentioned(world.people, withoutThings(world, rest.split(/\babout\b|[“"]/i)[0] ?? ""), { people: true })[0] : undefined);
    // The one asked answers by name, which says whom the player asked: told back as well, the
    // question is said twice, and the same question asked again later reads as the same reply.
    // A choice taken is told back, so the player sees which one the story took.
    const told = asking && (!addressee || base.chosen) ? tellAction(rest) : undefined;
    if (/\b(?:what do I know|do I know anything|I (?:try to )?(?:recall|remember))\b/i.test(rest))
      return { ...found, kind: "recall", subject, told: undefined };
    const advice = (!subject && !addressee) || /\bfor advice\b|\bwhat (?:should|shall|must|can) I do\b|\bwhat would you do\b/i.test(question);
    return { ...found, kind: advice ? "advice" : "question", subject, person: addressee ?? (advice ? person : undefined), told };
  }

  // Story mode: a line of narration is what happens next, told as the player wrote it.
  const opensWithSomeone = person !== undefined && rest.trim().startsWith(person.name);
  if (isNarration(rest, opensWithSomeone)) return { ...found, kind: "narration", told: tellNarration(rest) };

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
