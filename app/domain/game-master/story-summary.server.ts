import type { Logger } from "pino";
import { env } from "../../env.server.ts";
import { trackInFlight } from "../../lib/in-flight.server.ts";
import { storyMessagesBetween, type StoryMessage } from "../game-messages.server.ts";
import { advanceStorySummary, storySummary, type Story } from "../stories.server.ts";
import { gameMasterModel, isOfflineStoryteller } from "./model.server.ts";
import { streamReply } from "./reply-stream.server.ts";

/**
 * The story so far: as older exchanges leave the model's context, they are folded into a rolling
 * summary — written by the same model in the background and charged to nobody, or, by the offline
 * storyteller, extractively (the first sentence of each reply). A dozen exchanges at a time, after
 * the turn that let one go: the batch reaches ahead into exchanges the model still sees, so the
 * next turns, which let one exchange go each, find it already told and call no model. A story
 * played to its window's edge is summarised once every dozen turns, not on every turn; a long
 * story that never was catches up over its next turns.
 */

/** Exchanges folded into the summary per refresh. */
const EXCHANGES_PER_REFRESH = 12;
/** The summary is kept about this long: older detail gives way to newer. */
export const SUMMARY_CHARACTERS = 2400;

const SUMMARY_INSTRUCTIONS =
  "You keep the summary of an interactive story for its Game Master. Rewrite the summary so it includes the new events: who the player is, the people, places, promises and open threads that matter, in plain past-tense prose. At most 250 words. Write only the summary.";

function firstSentence(text: string) {
  const plain = text
    .split("\n")
    .filter((line) => line.trim() && !/^\s*\d{1,2}[.)]\s/.test(line))
    .join(" ")
    .replace(/[*_`#>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return plain.match(/^.*?[.!?](?=\s|$)/)?.[0] ?? plain.slice(0, 160);
}

/** The offline storyteller's summary: what the player did and the first sentence of what followed. */
function extractiveSummary(previous: string, exchanges: StoryMessage[]) {
  const lines = exchanges.map((message) => (message.role === "user" ? `You: ${firstSentence(message.content)}` : firstSentence(message.content)));
  const combined = [previous.trim(), lines.join(" ")].filter(Boolean).join(" ");
  if (combined.length <= SUMMARY_CHARACTERS) return combined;
  const tail = combined.slice(-SUMMARY_CHARACTERS);
  return tail.slice(tail.indexOf(" ") + 1);
}

async function modelSummary(previous: string, exchanges: StoryMessage[], signal: AbortSignal) {
  const events = exchanges.map((message) => `${message.role === "user" ? "Player" : "Game Master"}: ${message.content}`).join("\n\n");
  const readReply = await streamReply({
    model: gameMasterModel(),
    system: SUMMARY_INSTRUCTIONS,
    messages: [{ role: "user", content: `Summary so far:\n${previous.trim() || "(none yet)"}\n\nNew events:\n${events}` }],
    maxOutputTokens: 400,
    maxRetries: 1,
    abortSignal: signal,
  });
  let text = "";
  await readReply((delta) => (text += delta));
  return text.trim().slice(0, SUMMARY_CHARACTERS * 2);
}

/** The exchanges that were answered: one whose reply was interrupted (app/db/functions/finish_story_operation.sql) has none. */
function answered(messages: StoryMessage[]) {
  const unanswered = new Set(messages.filter((message) => message.role === "assistant" && !message.content).map((message) => message.exchange));
  return unanswered.size === 0 ? messages : messages.filter((message) => !unanswered.has(message.exchange));
}

/** Stories whose summary this instance is writing now. */
const refreshing = new Set<string>();

/** Whether an exchange the model no longer sees (the opening aside) is missing from the summary. */
function refreshDue(summaryThrough: number, keptFrom: number) {
  return keptFrom - 1 > Math.max(summaryThrough, 1);
}

/**
 * After a turn (`latest`, the exchange it wrote): if exchanges before `keptFrom` (the oldest the
 * model was shown, the opening aside) are not yet in the summary, fold the next dozen in, as far
 * as the exchange before `latest`. Runs in the background; a failure leaves the summary as it was,
 * to be tried after the next turn.
 */
export function refreshSummaryAfterTurn(
  story: Pick<Story, "id" | "summaryThrough">,
  { keptFrom, latest }: { keptFrom: number; latest: number },
  logger: Logger,
) {
  // The turn's own reading of the story says whether a refresh may be due, for free; most turns stop here.
  if (!refreshDue(story.summaryThrough, keptFrom)) return;
  // A player quicker than the summary would otherwise start a second one over the same exchanges.
  if (refreshing.has(story.id)) return;
  refreshing.add(story.id);
  const stop = new AbortController();
  const timeout = setTimeout(() => stop.abort(new Error("The summary took too long.")), env().AI_TIMEOUT_MS * 2);
  const work = (async () => {
    try {
      // Read again: a refresh that ended after this turn began has moved the summary on.
      const current = await storySummary(story.id);
      if (!current || !refreshDue(current.summaryThrough, keptFrom)) return;
      const from = current.summaryThrough;
      // The opening exchange is always in the context itself; the summary tells what came after it.
      const start = Math.max(from, 1);
      const through = Math.min(start + EXCHANGES_PER_REFRESH, latest - 1);
      const exchanges = answered(await storyMessagesBetween(story.id, start + 1, through));
      // Exchanges whose reply was lost tell nothing: the summary moves past them without a model.
      const summary =
        exchanges.length === 0
          ? current.summary
          : isOfflineStoryteller()
            ? extractiveSummary(current.summary, exchanges)
            : await modelSummary(current.summary, exchanges, stop.signal);
      if (!summary) return;
      await advanceStorySummary(story.id, { from, through, summary });
      logger.info({ storyId: story.id, through }, "story summary refreshed");
    } catch (error) {
      logger.warn({ err: error, storyId: story.id }, "the story summary could not be refreshed; it will be tried after the next turn");
    } finally {
      clearTimeout(timeout);
      refreshing.delete(story.id);
    }
  })();
  trackInFlight(work, () => stop.abort(new Error("The server is shutting down.")));
}
