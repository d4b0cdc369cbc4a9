import type { SessionScript } from "./session-script.ts";
import { celebrityLife } from "./sessions/celebrity-life.ts";
import { cultivationSimulator } from "./sessions/cultivation-simulator.ts";
import { empressSimulator } from "./sessions/empress-simulator.ts";
import { marySueCampus } from "./sessions/mary-sue-campus.ts";
import { matriarchHaremSimulator } from "./sessions/matriarch-harem-simulator.ts";

/** A script for each game content/games/ seeds, in the order the scorecard shows them. */
export const SESSION_SCRIPTS: readonly SessionScript[] = [
  empressSimulator,
  cultivationSimulator,
  celebrityLife,
  marySueCampus,
  matriarchHaremSimulator,
];
