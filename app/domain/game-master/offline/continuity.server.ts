import { splitStoryChoices } from "../../../lib/story-choices.ts";
import { midSentence } from "./names.server.ts";
import { escapeRegExp } from "./text.server.ts";
import { type Entity, WATCHES, type World } from "./world.server.ts";

/**
 * What the offline storyteller remembers, read back from the story itself: it keeps no memory of
 * its own, and a long story reaches it as the opening and the newest turns only. So every reply
 * carries what the next one needs, in words a reader expects anyway:
 * - a scene line ("*Day 3, evening — the Cold Palace*") holds the story's clock and where the
 *   player is; the clock moves one watch a turn, so it also counts the turns, which is what keeps
 *   paragraphs from repeating long after the turns that used them have left the context;
 * - the closing question addresses the player by the name they gave ("**What now, Lin Mei?**"),
 *   so the name outlives the message that gave it;
 * - the numbered choices are the ones a typed "2" picks.
 */
export interface Continuity {
  /** The reply being written: 0 opens the story, 1 answers the player's first action after it, … */
  turn: number;
  place: Entity | undefined;
  playerName: string | undefined;
  /** The choices the latest reply offered, as the player would type them. */
  lastChoices: string[];
  /** Every paragraph of the replies the storyteller can see, so none is written twice. */
  seen: Set<string>;
  lastReply: string;
  /** Whether every reply of the story is in view (none has left the context yet): then `seen` is all it has told. */
  wholeStoryVisible: boolean;
}

export interface Clock {
  day: number;
  watch: (typeof WATCHES)[number];
  /** The watch after this one, for "By evening, …". */
  nextWatch: (typeof WATCHES)[number];
}

export function clockAt(world: World, turn: number): Clock {
  const tick = world.startWatch + turn;
  return {
    day: Math.floor(tick / WATCHES.length) + world.startDay,
    watch: WATCHES[tick % WATCHES.length] ?? "morning",
    nextWatch: WATCHES[(tick + 1) % WATCHES.length] ?? "morning",
  };
}

export function sceneLine(world: World, turn: number, place: Entity | undefined) {
  const { day, watch } = clockAt(world, turn);
  return `*Day ${day}, ${watch}${place ? ` — ${midSentence(place.name)}` : ""}*`;
}

const SCENE_LINE = new RegExp(`^\\*Day (\\d{1,5}), (${WATCHES.join("|")})(?: — ([^*\\n]+))?\\*$`, "m");

function readSceneLine(world: World, reply: string) {
  const match = SCENE_LINE.exec(reply.split("\n", 1)[0] ?? "");
  if (!match) return undefined;
  const tick = (Number(match[1]) - world.startDay) * WATCHES.length + WATCHES.indexOf(match[2] as (typeof WATCHES)[number]);
  return { turn: tick - world.startWatch, placeName: match[3] };
}

function findPlace(world: World, name: string | undefined): Entity | undefined {
  if (!name) return undefined;
  const bare = (text: string) => text.replace(/^the\s+/i, "").toLowerCase();
  // A place the world does not name ("the kitchens") is still where the player went.
  return world.places.find((place) => bare(place.name) === bare(name)) ?? { name, detail: "" };
}

/**
 * The closing questions, each naming the player (`{, address}`: ", Lin Mei" or nothing): a word
 * and the name, short enough that coming back every few turns reads as a voice, not a formula.
 */
export const ADDRESS_LINES = [
  "**Well{, address}?**",
  "**Now{, address}?**",
  "**So{, address}?**",
  "**Then{, address}?**",
  "**And{, address}?**",
  "**Yes{, address}?**",
] as const;

const ADDRESSED = ADDRESS_LINES.map(
  (line) => new RegExp(`^${escapeRegExp(line).replace(escapeRegExp("{, address}"), ", ([^*?.\\n]{1,40})")}`, "m"),
);

/** The name a reply's closing question calls the player by, if it is a name rather than a title. */
function addressedName(world: World, reply: string) {
  for (const pattern of ADDRESSED) {
    const name = pattern.exec(reply)?.[1];
    if (name && name !== world.player.vocative && name !== world.player.honorific) return name;
  }
  return undefined;
}

export function readContinuity({
  world,
  previousActions,
  previousReplies,
  declaredName,
}: {
  world: World;
  previousActions: string[];
  previousReplies: string[];
  /** Reads a name the player gave in a message ("My name is Lin."), or undefined. */
  declaredName: (message: string) => string | undefined;
}): Continuity {
  let turn = previousReplies.length;
  let place = world.startPlace;
  for (let index = previousReplies.length - 1; index >= 0; index -= 1) {
    const scene = readSceneLine(world, previousReplies[index] ?? "");
    if (!scene) continue;
    // Replies after it that carry no scene line (another model wrote them) still count.
    turn = scene.turn + (previousReplies.length - index);
    place = findPlace(world, scene.placeName);
    break;
  }

  // The newest word on the player's name wins: what they said, or what a reply called them.
  let playerName: string | undefined;
  for (let index = Math.max(previousActions.length, previousReplies.length) - 1; index >= 0 && !playerName; index -= 1) {
    const reply = previousReplies[index];
    const action = previousActions[index];
    playerName = (reply !== undefined ? addressedName(world, reply) : undefined) ?? (action !== undefined ? declaredName(action) : undefined);
  }

  const lastReply = previousReplies.at(-1) ?? "";
  const seen = new Set(previousReplies.flatMap((reply) => reply.split(/\n\s*\n/).map((paragraph) => paragraph.trim())));
  return {
    turn,
    place,
    playerName,
    lastChoices: splitStoryChoices(lastReply).choices,
    seen,
    lastReply,
    wholeStoryVisible: previousReplies.length >= turn,
  };
}
