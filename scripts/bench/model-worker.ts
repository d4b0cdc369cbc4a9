/**
 * The game-chat benchmark's model, in a worker thread: a local OpenAI-compatible server that
 * answers at once. On the thread that plays hundreds of players its answers waited behind their
 * reads, which is load-generator time, not the server's; here its event loop has nothing else to do.
 */
import { parentPort, workerData } from "node:worker_threads";
import { startOpenAICompatibleServer } from "#tests/fakes/openai-compatible.ts";

export interface ModelSettings {
  /** A request whose last message contains this gets a short answer (the probe's turns). */
  probeMarker: string;
  /** Everyone else's reply, streamed `tokenDelayMs` apart. */
  replyTokens: string[];
  tokenDelayMs: number;
}

const { probeMarker, replyTokens, tokenDelayMs } = workerData as ModelSettings;
const model = await startOpenAICompatibleServer();
model.script((request) =>
  JSON.stringify((request.body.messages as unknown[]).at(-1)).includes(probeMarker)
    ? { tokens: ["A ", "short ", "answer."] }
    : { tokens: replyTokens, tokenDelayMs },
);
// The fake keeps every request for tests; a benchmark has no use for them.
setInterval(() => model.requests.splice(0), 1000).unref();
parentPort?.postMessage(model.baseUrl);
