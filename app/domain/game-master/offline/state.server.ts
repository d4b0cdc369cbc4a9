import { applyStateChanges, type StoryState } from "../../../lib/tracked-stats.ts";
import { STATE_CLOSE, STATE_OPEN } from "../state-block.server.ts";
import type { TrackedState } from "../story-brief.server.ts";
import type { PlayerAction } from "./action.server.ts";
import type { StatusLine } from "./status-line.server.ts";
import type { Entity } from "./world.server.ts";

/**
 * The offline storyteller's state block: the game's tracked stats moved the way its reply moved
 * them. A stat the reply's status line also shows ("Grace 72 (−3)") moves by the line's change, so
 * the panel and the prose move together (and agree, where the game's starting values and its
 * prompt's status line do); the others lean with the action — kindness builds standing, force
 * costs it and raises what is dangerous — and a person the player treats kindly joins a list of
 * allies or friends. A quiet turn (a question, the opening) changes nothing.
 */

/** Stats whose rise is bad news: they move against the others. */
const HARMFUL = /suspicion|danger|scandal|risk|debt|heat|threat|notoriety|stress|enmity|wound|injur|corruption|rivalry|exhaust/i;
/** Lists a person joins by being treated kindly. */
const FRIENDLY_LIST = /all(y|ies)|friend|contact|connection|companion|confidant|support/i;
/** Lists a person joins by being treated harshly. */
const HOSTILE_LIST = /enem|rival|foe|grudge/i;

export function sameStat(name: string, label: string) {
  const [a, b] = [name.toLowerCase(), label.toLowerCase()];
  return a === b || a.includes(b) || b.includes(a);
}

/** The block the server takes out of a reply and stores as the story's state. */
export function stateBlock(values: StoryState) {
  return `${STATE_OPEN}${JSON.stringify(values)}${STATE_CLOSE}`;
}

/** The tracked stats after the reply: the values its status line moved, and the others leaning with the action. */
export function offlineState({
  trackedState,
  action,
  status,
  quiet,
  random,
}: {
  trackedState: TrackedState;
  action: PlayerAction;
  /** The status line the reply shows, if the game has one, and how much each of its stats moved. */
  status: { line: StatusLine; changes: number[] } | undefined;
  quiet: boolean;
  random: () => number;
}): StoryState {
  const { stats, values } = trackedState;
  const changes: StoryState = {};
  for (const stat of stats) {
    const shown = status?.line.stats.findIndex((line) => line.kind !== "fixed" && line.kind !== "time" && sameStat(stat.name, line.label)) ?? -1;
    if (stat.kind === "number") {
      if (shown >= 0) changes[stat.name] = Number(values[stat.name]) + (status?.changes[shown] ?? 0);
      else if (!quiet && action.tone !== "neutral") {
        const step = Math.max(1, Math.round(((stat.max - stat.min) / 100) * (1 + Math.floor(random() * 3))));
        const rises = (action.tone === "kind") !== HARMFUL.test(stat.name);
        changes[stat.name] = Number(values[stat.name]) + (rises ? step : -step);
      }
    } else if (stat.kind === "list" && !quiet && action.person) {
      const joins = action.tone === "kind" ? FRIENDLY_LIST.test(stat.name) : action.tone === "harsh" && HOSTILE_LIST.test(stat.name);
      if (joins) changes[stat.name] = [...(values[stat.name] as string[]), personName(action.person)];
    }
  }
  return applyStateChanges(stats, values, changes);
}

/** "Marquis Mu Tieyan, the boy's uncle" → "Marquis Mu Tieyan". */
function personName(person: Entity) {
  return person.name.split(",")[0]?.trim() ?? person.name;
}
