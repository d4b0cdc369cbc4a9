/**
 * The game-chat benchmark's probe player, in a worker thread: its clock and its event loop are
 * its own, so the first-token times it measures are the server's, not delays of the thread that
 * plays the model and hundreds of other players.
 */
import { parentPort, workerData } from "node:worker_threads";
import { createTurnClient, type TurnResult } from "./turn-client.ts";

export interface ProbeRequest {
  base: string;
  token: string;
  games: string[];
  turns: number;
  pauseMs: number;
}

const { base, token, games, turns, pauseMs } = workerData as ProbeRequest;
const client = createTurnClient(base);
const results: TurnResult[] = [];
for (let turn = 0; turn < turns; turn += 1) {
  results.push(await client.takeTurn(token, games[turn % games.length]!, true));
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
client.close();
parentPort?.postMessage(results);
