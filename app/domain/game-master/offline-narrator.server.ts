import {
  midSentence,
  nameKeys,
  PERSON_DETAIL,
  parseStatusLine,
  shortName,
  type Entity,
  type Stat,
  type StatusLine,
  type World,
} from "./offline-world.server.ts";

/**
 * The offline storyteller's narration: deterministic (the same story and action always give the
 * same reply), built from the game's own world, answering what the player just did, never the
 * same twice in a story, and ending with numbered choices.
 */
export interface TurnInput {
  world: World;
  /** The player's new message. */
  action: string;
  /** The Game Master's earlier replies in this story, oldest first (as far as the context holds them). */
  previousReplies: string[];
  /** Another answer to the same turn (a retried reply): 0 or absent for the first. */
  variant?: number;
  /** More of the latest reply (Continue): prose only, without the status, the prompt or the choices. */
  extending?: boolean;
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

/** mulberry32: a small seeded generator, so a story replays identically. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;

function pick<T>(random: Random, items: readonly [T, ...T[]] | readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError("pick() needs at least one item.");
  return item;
}

/** A seeded shuffle. */
function shuffled<T>(random: Random, items: readonly T[]): T[] {
  const keyed = items.map((item) => ({ item, key: random() }));
  return keyed.sort((a, b) => a.key - b.key).map(({ item }) => item);
}

/** A pick that avoids what the previous reply already said, so consecutive turns read differently. */
function pickFresh<T>(random: Random, items: readonly T[], lastReply: string, render: (item: T) => string): T {
  const fresh = items.filter((item) => !lastReply.includes(render(item)));
  return pick(random, fresh.length > 0 ? fresh : items);
}

function fill(template: string, values: Record<string, string>) {
  return template.replace(/\{(\w+)\}/g, (_match, key: string) => values[key] ?? "");
}

function capitalise(text: string) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---------------------------------------------------------------------------------------------
// Reading the player's action

const READY = /^(yes|yeah|yep|ok(ay)?|sure|ready|i('| a)m ready|let'?s (go|begin|start|play)|begin|start|go|i am|of course|absolutely)\b[\s!.]*$/i;

const POSITIVE =
  /\b(help|thank|gift|kind|gentl|pardon|merc|apolog|listen|comfort|stud|rehears|practi|rest|honest|visit|protect|support|prais|share|teach|learn|train|forgiv|console|reassur|invite|celebrat|care|heal|feed|donat|relief|pray|respect|bow|compliment|encourag)\w*/gi;
const RISKY =
  /\b(threat|forc|arrest|execut|punish|lie|lying|insult|brib|steal|spy|spie|blackmail|humiliat|refus|ignor|skip|fight|slap|exile|demand|confront|accus|purg|dismiss|seiz|confiscat|sabotag|mock|shout|storm|poison|betray|deceiv|manipulat|expos|leak)\w*/gi;
const SPENDING = /\b(gift|brib|buy|bought|pay|paid|spend|spent|donat|relief|reward|hire|fund|feast|banquet)\w*/i;
const EARNING = /\b(earn|sell|sold|tax|confiscat|seiz|collect|salary|paycheck|deal|contract|win|won)\w*/i;

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
function toSecondPerson(text: string) {
  return text
    .split(/("[^"]*"|“[^”]*”)/)
    .map((part, index) =>
      index % 2 === 1 ? part : FIRST_TO_SECOND.reduce((result, [pattern, replacement]) => result.replace(pattern, replacement), part),
    )
    .join("");
}

function sentences(text: string) {
  return (
    text
      .match(/[^.!?]+(?:[.!?]+["”]?|$)/g)
      ?.map((sentence) => sentence.trim())
      .filter(Boolean) ?? []
  );
}

/** The player's action, briefly, in the narrator's second person. */
function reflectAction(action: string) {
  const clean = action.replace(/\s+/g, " ").trim();
  let excerpt = sentences(clean).slice(0, 2).join(" ");
  const words = excerpt.split(" ");
  if (words.length > 45)
    excerpt = `${words
      .slice(0, 45)
      .join(" ")
      .replace(/[,;:]$/, "")}…`;
  if (!/[.!?…"”]$/.test(excerpt)) excerpt += ".";

  if (/^["“]/.test(excerpt)) return `Your words carry further than you might expect: ${excerpt}`;
  if (/\?["”]?$/.test(excerpt) && !/^I\b/.test(excerpt)) return `The question hangs in the air: “${excerpt.replace(/^["“]|["”]$/g, "")}”`;
  if (/^(I|I'm|I'll|I've|I'd|my|me|we)\b/i.test(excerpt)) return capitalise(toSecondPerson(excerpt));
  return `You decide to ${excerpt.charAt(0).toLowerCase()}${toSecondPerson(excerpt.slice(1))}`;
}

function mentioned(entities: Entity[], action: string) {
  const lower = action.toLowerCase();
  return entities.filter((entity) => {
    const keys = nameKeys(entity.name);
    if (keys.length === 0) return lower.includes(entity.name.toLowerCase());
    return keys.some((key) => new RegExp(`\\b${key.toLowerCase()}\\b`, "u").test(lower));
  });
}

function mentionedPlaces(places: Entity[], action: string) {
  const lower = action.toLowerCase();
  return places.filter((place) => lower.includes(place.name.replace(/^the /i, "").toLowerCase()));
}

// ---------------------------------------------------------------------------------------------
// The narration's building blocks (genre-neutral: the game's own names carry the flavour)

const OUTCOMES = [
  "It works, mostly. What you wanted is within reach now, but not everyone who saw it happen is pleased.",
  "For a moment nothing happens. Then word begins to travel, faster than you would like and not quite in the shape you intended.",
  "The first step goes smoothly. The second, you suspect, will cost more.",
  "Not everyone approves. But nobody, for once, can pretend you did not act.",
  "The effect is immediate, and it is not the one anyone in the room expected, including, perhaps, you.",
  "You have bought yourself a little time and a great deal of attention. Both will need spending wisely.",
  "It is a small move, but small moves are how this world keeps score, and someone has already written it down.",
  "Something shifts. You can feel it in the way people look at you afterwards: a half-second longer, a half-step back.",
];

const REACTIONS = [
  "{name} listens without interrupting, and the silence that follows says more than an answer would.",
  "{name} is the first to respond: a pause a heartbeat too long, then a careful smile.",
  "“I wondered when you would try that,” {name} says at last, not unkindly.",
  "“Then we understand each other. For now,” says {name}, eyes flicking to {other}.",
  "“Bold,” murmurs {name}. “Let us hope it is also wise.”",
  "“You will want to be certain of this,” {name} says quietly. “Others already are.”",
  "{name} offers help at once, which is generous, and a little too quick to be entirely free.",
  "“Everyone will have heard about this by tomorrow,” {name} observes, and does not sound sorry about it.",
  "{name} glances toward {other} before answering, the way people do when a debt is being counted.",
  "“That is not what I expected from you,” {name} admits. It is hard to tell whether that is praise.",
];

const SCENES = [
  "When you next pass through {place}, it is busier than it should be, and conversations falter as you approach.",
  "Later, {place} is unusually quiet, the kind of quiet that means everyone is listening.",
  "By the time you reach {place}, the story of what you did has arrived ahead of you, slightly improved in the telling.",
  "In {place}, someone has left a folded note where only you would find it. It is unsigned.",
  "The light has changed by the time you look up again; in {place} the day is ending the way days here always end, with deals no one will admit to.",
];

const PRESSURES = [
  "Meanwhile, the world does not wait. {pressure}",
  "And beneath it all, an older problem keeps its own time. {pressure}",
  "A reminder arrives before the day is out that other matters are pressing too. {pressure}",
  "You also know this cannot be put off forever. {pressure}",
];

const PERSON_CHOICES = [
  "Invite {person} to speak with you privately, and listen for what goes unsaid.",
  "Send a discreet message to {person} proposing an understanding.",
  "Confront {person} directly about what you have just seen.",
  "Offer {person} a favour now, to be repaid when you need it most.",
  "Ask {person} for advice, and watch closely what that advice would cost you.",
  "Keep {person} close for the next few days, and learn what they do when they think no one is watching.",
];

const PLACE_CHOICES = [
  "Go to {place} and see who is already there.",
  "Withdraw to {place} to think before you commit to anything.",
  "Make a visible appearance at {place}, so that everyone knows you are not hiding.",
];

const GROUP_CHOICES = ["Sound out {group}, quietly, about where they stand.", "Make a public gesture that {group} cannot ignore."];

const CHALLENGE_CHOICES = [
  "Deal with {challenge} now, before matters grow worse.",
  "Ask for a full account of {challenge} before deciding anything.",
  "Find someone else to carry the weight of {challenge}, and the blame if it fails.",
];

const STEADY_CHOICES = [
  "Press your advantage and follow through on what you just started.",
  "Wait, watch, and let someone else make the first move.",
  "Take a moment for yourself: rest, regroup, and see how things settle.",
];

const PROMPTS = [
  "**What do you do?** Choose a path, or type any other action:",
  "**Your move.** Pick one of these, or write your own:",
  "**What happens next is up to you.** For example:",
  "**How do you answer?** You might:",
];

// ---------------------------------------------------------------------------------------------
// Stats

function formatStat(stat: Stat, change: number) {
  if (stat.kind === "fixed") return stat.label;
  const amount = `${stat.prefix}${stat.value.toLocaleString("en-US")}${stat.suffix}`;
  if (change === 0) return `${stat.label} ${amount}`;
  const sign = change > 0 ? "+" : "−";
  return `${stat.label} ${amount} (${sign}${Math.abs(change).toLocaleString("en-US")})`;
}

function renderStatus(status: StatusLine, changes: number[]) {
  const text = status.stats.map((stat, index) => formatStat(stat, changes[index] ?? 0)).join(" · ");
  return `${status.emphasis}${text}${status.emphasis}`;
}

/** Moves one or two stats the way the action leans: kindness builds standing, force costs it. */
function moveStats(status: StatusLine, action: string, random: Random): { status: StatusLine; changes: number[] } {
  const positive = action.match(POSITIVE)?.length ?? 0;
  const risky = action.match(RISKY)?.length ?? 0;
  const changes = status.stats.map(() => 0);
  const scores = status.stats.flatMap((stat, index) => (stat.kind === "score" ? [index] : []));
  const [first, second] = shuffled(random, scores);
  const step = () => 1 + Math.floor(random() * 3);

  if (first !== undefined) changes[first] = risky > positive ? step() + 1 : positive > 0 ? step() : random() < 0.5 ? 1 : -1;
  if (second !== undefined && risky > 0) changes[second] = -(step() + 1);
  else if (second !== undefined && random() < 0.35) changes[second] = random() < 0.5 ? 1 : -1;

  status.stats.forEach((stat, index) => {
    if (stat.kind !== "money") return;
    const swing = Math.max(10, Math.round((stat.value * (0.02 + random() * 0.06)) / 10) * 10);
    if (SPENDING.test(action)) changes[index] = -swing;
    else if (EARNING.test(action)) changes[index] = swing;
  });

  const stats = status.stats.map((stat, index) => {
    const limit = stat.kind === "score" ? 100 : Number.MAX_SAFE_INTEGER;
    const value = Math.min(limit, Math.max(0, stat.value + (changes[index] ?? 0)));
    changes[index] = value - stat.value;
    return { ...stat, value };
  });
  return { status: { ...status, stats }, changes };
}

/** The stats as the last reply left them, or the prompt's starting line. */
function currentStatus(world: World, previousReplies: string[]) {
  const start = world.status;
  if (!start) return undefined;
  for (const reply of [...previousReplies].reverse()) {
    const line = parseStatusLine(reply);
    if (!line) continue;
    const labels = start.stats.map((stat) => stat.label);
    if (line.stats.every((stat) => labels.includes(stat.label))) return { ...line, emphasis: start.emphasis };
  }
  return start;
}

// ---------------------------------------------------------------------------------------------
// The reply

const INTENTS = {
  travel: /\b(go|goes|going|went|walk|head|travel|visit|return|ride|run|enter|leave|arrive|sneak|hurry|climb)\w*\b/i,
  investigate: /\b(search|look|investigat|examin|inspect|read|stud|check|spy|watch|observ|listen|learn|ask about|find out|research|question)\w*/i,
  rest: /\b(rest|sleep|wait|eat|relax|nap|meditat|pause|skip ahead|next day|tomorrow)\w*/i,
};

const OPENING_HOOKS = [
  "{name} is already watching you, waiting to see what you will do first.",
  "Before you can settle in, {name} steps forward with a matter that will not wait.",
  "Somewhere close by, {name} is asking for a word with you, and the asking has the sound of a test.",
];

const DISCOVERIES = [
  "You make a point of learning more, and the world obliges. {fact}",
  "Looking closer pays off. {fact} It may matter sooner than you think.",
  "A detail you had overlooked comes into focus. {fact}",
];

const ARRIVALS = ["You arrive at {place}. {description}", "The way to {place} is short; what waits there is not. {description}"];

const TIME_PASSES = [
  "Time passes, as it must. When you take up the thread again, the world has moved a little without you.",
  "Some hours slip by. Rest is a luxury here, and others have spent those hours less gently than you.",
];

const CONTINUES_NAME = /^(are|were|sits|lies|stands|in|at|on|from|for|with|of)\b/;
const RELATIVE_CLAUSE = /^(where|which|whose|who|that)\b/;

/** A named thing and what the content says about it, as one sentence: "The Salt Quay, where…". */
function describe(entity: Entity, { bold = false } = {}) {
  const name = bold ? `**${entity.name}**` : capitalise(entity.name);
  const detail = entity.detail.replace(/[.!?]?$/, ".");
  if (detail.startsWith(",")) return `${name}${detail}`;
  if (RELATIVE_CLAUSE.test(detail)) return `${name}, ${detail}`;
  return CONTINUES_NAME.test(detail) || PERSON_DETAIL.test(detail) ? `${name} ${detail}` : `${name}: ${detail}`;
}

function choiceFor(random: Random, templates: readonly string[], key: string, value: string) {
  return fill(pick(random, templates), { [key]: value });
}

/** 3 to 6 distinct choices: people first, then the pressing matter, a place or a group, and one steady option. */
function choicesFor(random: Random, world: World, focus: Entity | undefined, pressure: Entity | undefined) {
  const candidates: string[] = [];
  const people = [
    focus,
    ...shuffled(
      random,
      world.people.filter((person) => person !== focus),
    ),
  ].filter((person): person is Entity => person !== undefined);
  for (const person of people.slice(0, 2)) candidates.push(choiceFor(random, PERSON_CHOICES, "person", shortName(person.name)));
  const challenge = pressure ?? (world.challenges.length > 0 ? pick(random, world.challenges) : undefined);
  if (challenge) {
    candidates.push(choiceFor(random, CHALLENGE_CHOICES, "challenge", `the ${challenge.name.replace(/^the /i, "").toLowerCase()}`));
  }
  const place = world.places.length > 0 ? pick(random, world.places) : undefined;
  if (place) candidates.push(choiceFor(random, PLACE_CHOICES, "place", midSentence(place.name)));
  const group = world.groups.length > 0 ? pick(random, world.groups) : undefined;
  if (group && random() < 0.6) candidates.push(choiceFor(random, GROUP_CHOICES, "group", midSentence(group.name)));
  if (people[2]) candidates.push(choiceFor(random, PERSON_CHOICES, "person", shortName(people[2].name)));

  const steady = shuffled(random, STEADY_CHOICES);
  const distinct = [...new Set(candidates)];
  const count = Math.max(3, Math.min(6, 3 + Math.floor(random() * 3)));
  const chosen = shuffled(random, distinct).slice(0, count - 1);
  for (const extra of steady) if (chosen.length < Math.max(3, count)) chosen.push(extra);
  return chosen.slice(0, Math.max(3, Math.min(count, chosen.length)));
}

export function narrateTurn({ world, action, previousReplies, variant, extending = false }: TurnInput): string {
  const lastReply = previousReplies.at(-1) ?? "";
  const variation = variant ? `\n${variant}` : "";
  const random = generator(hash(`${world.title}\n${previousReplies.length}\n${action}\n${lastReply.slice(-400)}${variation}`));
  const firstTurn = previousReplies.length === 0 && !extending;
  const ready = firstTurn && READY.test(action.trim());
  const focus = mentioned(world.people, action)[0] ?? (world.people.length > 0 ? pick(random, world.people) : undefined);
  const others = world.people.filter((person) => person !== focus);
  const other = others.length > 0 ? shortName(pick(random, others).name) : "the others";
  const place = mentionedPlaces(world.places, action)[0];
  const paragraphs: string[] = [];

  if (firstTurn && world.opening) paragraphs.push(world.opening);
  if (!ready && !extending) {
    const outcome = pickFresh(random, OUTCOMES, lastReply, (item) => item);
    paragraphs.push(`${firstTurn ? "You begin as you mean to go on. " : ""}${reflectAction(action)} ${outcome}`);
  }

  if (place && INTENTS.travel.test(action)) {
    const description = place.detail ? describe(place) : "It is exactly as you remember it, which is somehow unsettling.";
    paragraphs.push(fill(pick(random, ARRIVALS), { place: midSentence(place.name), description }));
  } else if (!ready && INTENTS.investigate.test(action) && world.facts.length > 0) {
    const fact = mentioned(world.facts, action)[0] ?? pickFresh(random, world.facts, lastReply, (entry) => entry.detail);
    paragraphs.push(fill(pick(random, DISCOVERIES), { fact: describe(fact) }));
  } else if (!ready && INTENTS.rest.test(action)) {
    paragraphs.push(pick(random, TIME_PASSES));
  }

  if (focus) {
    const name = shortName(focus.name);
    const template = pickFresh(random, ready ? OPENING_HOOKS : REACTIONS, lastReply, (item) => fill(item, { name, other }).slice(-40));
    const reaction = fill(template, { name, other });
    const scenePlace = !place && world.places.length > 0 && random() < 0.5 ? pick(random, world.places) : undefined;
    const scene = scenePlace ? ` ${fill(pick(random, SCENES), { place: midSentence(scenePlace.name) })}` : "";
    paragraphs.push(`${reaction}${ready ? "" : scene}`);
  } else if (!firstTurn) {
    paragraphs.push("Around you, the world takes note. Nothing here happens without someone remembering it later.");
  }

  const pressure =
    world.challenges.length > 0 && (firstTurn || random() < 0.55)
      ? pickFresh(random, world.challenges, lastReply, (challenge) => `**${challenge.name}**`)
      : undefined;
  if (pressure?.detail) paragraphs.push(fill(pick(random, PRESSURES), { pressure: describe(pressure, { bold: true }) }));
  if (extending) return paragraphs.join("\n\n");

  const status = currentStatus(world, previousReplies);
  if (status) {
    const moved = firstTurn ? { status, changes: status.stats.map(() => 0) } : moveStats(status, action, random);
    paragraphs.push(renderStatus(moved.status, moved.changes));
  }

  paragraphs.push(pick(random, PROMPTS));
  paragraphs.push(
    choicesFor(random, world, focus, pressure)
      .map((choice, index) => `${index + 1}. ${choice}`)
      .join("\n"),
  );
  return paragraphs.join("\n\n");
}
