/**
 * A context the provider can cache (issue 34, docs/decisions/055). For stories of 10, 1,000 and
 * 10,000 exchanges with long player actions in empress-simulator (its tracked stats), a model that
 * changes a stat on every turn plays 20 more turns at a context budget of 8,000 and 32,000 tokens.
 * Each turn's request is built as the site builds it — the window read as story_context reads it
 * (storyReadLimits; the rows handed to storedConversation), the context from buildModelContext, the
 * summary refreshed by the site's rule (summaryRefreshDue) — and compared with the previous turn's:
 *   - repeated prefix: the share of the request's tokens identical to the previous request's from
 *     the first byte (the chat-completions messages as JSON), median over the 20 turns;
 *   - input tokens per turn (median);
 *   - input cost per 1,000 turns at a reference price ($2.50 per million input tokens, cached input
 *     at 0.1×), cached as OpenAI caches: the repeated prefix in steps of 128 tokens, from 1,024.
 * "Today" is main's layout before this change, rebuilt from the same parts by `todaysRequest`
 * below (a baseline, like the game-chat bench's minimal relay): the state and the omitted-turns
 * note in the one system message, the author's note before the message, and the oldest exchange
 * dropped one at a time.
 *
 *   npm run bench -- prompt-cache
 */
import { loadSeedGames } from "#app/db/seed/seed.server.ts";
import { storedConversation } from "#app/domain/game-master/begun-turn.server.ts";
import { buildModelContext, type ConversationMessage, type ModelContext } from "#app/domain/game-master/context.server.ts";
import {
  isWorldContentType,
  OMITTED_TURNS_NOTE,
  renderStateRules,
  renderTrackedState,
  WORLD_CONTENT_TYPES,
  type StoryBrief,
  type TrackedState,
} from "#app/domain/game-master/story-brief.server.ts";
import { withAuthorNote } from "#app/domain/game-master/turn-message.server.ts";
import { EXCHANGES_PER_REFRESH, summaryRefreshDue } from "#app/domain/game-master/story-summary.server.ts";
import { estimateMessageTokens, estimateTokens, storyReadLimits } from "#app/domain/game-master/tokens.server.ts";
import { resolveState } from "#app/lib/tracked-stats.ts";
import { markdownTable, writeReportSection } from "./report.ts";

const SIZES = [10, 1_000, 10_000];
const BUDGETS = [8_000, 32_000];
const TURNS = 20;
const GAME = "empress-simulator";
const INPUT_PRICE_PER_MILLION = 2.5;
const CACHED_INPUT_SHARE = 0.1;

const seed = loadSeedGames().find((game) => game.game.slug === GAME);
if (!seed) throw new Error(`content/games/${GAME} is missing`);
// The brief as the site reads it from the seeded game (game-source.server.ts): its world content, most important first.
const brief: StoryBrief = {
  title: seed.game.title,
  prompt: seed.game.prompt,
  sections: seed.content
    .flatMap(({ contentType, title, content }) => (contentType && isWorldContentType(contentType) ? [{ contentType, title, content }] : []))
    .sort((a, b) => WORLD_CONTENT_TYPES.indexOf(a.contentType) - WORLD_CONTENT_TYPES.indexOf(b.contentType)),
};
const stats = seed.game.trackedStats ?? [];

/** A long player action (about 110 words) and a reply of about 120 with three choices, numbered by exchange. */
function exchangeText(exchange: number): [string, string] {
  const action = `Move ${exchange}: ${"I summon Chief Eunuch Gu Deshun behind the pearl curtain and ask, quietly, what the Lantern Office heard in the Prince of Jing's household last night; then I send Madam Lin Cuiwei with a sealed note to the Grand Chancellor, asking him to delay the memorial on the northern grain tax until the seals are settled. ".repeat(2)}`;
  const reply = `Reply ${exchange}: ${"Gu Deshun bows so low his hat nearly brushes the lacquer floor. The prince's household was busy, he says: couriers to Iron Gate Pass, a physician at midnight, and a tutor who left before dawn. Duan Wenhai reads your note twice, folds it into his sleeve, and says nothing at all, which in this court is an answer. ".repeat(2)}\n\n1. Question the physician\n2. Write to Marquis Mu\n3. Wait`;
  return [action, reply];
}

type Row = [exchange: number, role: "user" | "assistant", content: string];

/** The rows story_context answers for a turn about exchange `before`: the opening, and the newest within the read limits. */
function storyContextRows(story: Row[][], before: number, budgetTokens: number) {
  const { maxExchanges, maxCharacters } = storyReadLimits(budgetTokens);
  const recent: Row[] = [];
  let newer = 0;
  for (let exchange = before - 1; exchange >= Math.max(1, before - maxExchanges); exchange -= 1) {
    for (const row of story[exchange - 1]!.toReversed()) {
      if (newer >= maxCharacters) break;
      recent.unshift(row);
      newer += row[2].length;
    }
  }
  return { opening: JSON.stringify(story[0] ?? []), recent: JSON.stringify(recent) };
}

/** The same parts in main's layout before docs/decisions/055 (see the file's comment). */
function todaysRequest(
  context: ModelContext,
  conversation: ConversationMessage[],
  { budgetTokens, message, authorNote, trackedState }: { budgetTokens: number; message: string; authorNote: string; trackedState: TrackedState },
) {
  const [game = "", slow = ""] = context.system;
  // Today the state's rules followed its values, after the story's memory (their example gave the values now).
  const rules = renderStateRules(trackedState.stats);
  const stable = game.endsWith(rules) ? game.slice(0, -rules.length).trimEnd() : game;
  const omitted = slow.endsWith(OMITTED_TURNS_NOTE);
  const memory = omitted ? slow.slice(0, -OMITTED_TURNS_NOTE.length).trimEnd() : slow;
  const system = [stable, memory, renderTrackedState(trackedState), rules, omitted ? OMITTED_TURNS_NOTE : ""].filter(Boolean).join("\n\n");
  const finalMessage = withAuthorNote(message, authorNote);
  const [openingAction, openingReply, ...rest] = conversation;
  const opening = [openingAction, openingReply].filter((entry) => entry !== undefined);
  let room = budgetTokens - estimateTokens(system) - estimateMessageTokens(finalMessage);
  room -= opening.reduce((sum, entry) => sum + estimateMessageTokens(entry.content), 0);
  const kept: ConversationMessage[] = [];
  for (let index = rest.length - 2; index >= 0; index -= 2) {
    const cost = estimateMessageTokens(rest[index]!.content) + estimateMessageTokens(rest[index + 1]!.content);
    if (cost > room) break;
    room -= cost;
    kept.unshift(rest[index]!, rest[index + 1]!);
  }
  return [{ role: "system", content: system }, ...opening, ...kept, { role: "user", content: finalMessage }];
}

/** A request as an OpenAI-compatible server reads it: the messages, in order. */
function requestText(messages: { role: string; content: string }[]) {
  return JSON.stringify(messages.map(({ role, content }) => ({ role, content })));
}

function sharedPrefixTokens(previous: string, current: string) {
  let index = 0;
  const end = Math.min(previous.length, current.length);
  while (index < end && previous.charCodeAt(index) === current.charCodeAt(index)) index += 1;
  return estimateTokens(current.slice(0, index));
}

/** What OpenAI reads from its cache of a repeated prefix: 128-token steps, from 1,024 tokens. */
function cachedTokens(prefixTokens: number) {
  return prefixTokens < 1024 ? 0 : Math.floor(prefixTokens / 128) * 128;
}

function median(values: number[]) {
  const sorted = values.toSorted((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

interface Measure {
  shares: number[];
  inputs: number[];
  cost: number;
}

function measure(): Measure {
  return { shares: [], inputs: [], cost: 0 };
}

function record(target: Measure, previous: string | undefined, current: string) {
  const input = estimateTokens(current);
  const cached = previous === undefined ? 0 : cachedTokens(sharedPrefixTokens(previous, current));
  if (previous !== undefined) {
    target.shares.push(sharedPrefixTokens(previous, current) / input);
    target.inputs.push(input);
    target.cost += ((input - cached + cached * CACHED_INPUT_SHARE) * INPUT_PRICE_PER_MILLION) / 1e6;
  }
}

function play(size: number, budgetTokens: number) {
  const story: Row[][] = Array.from({ length: size }, (_, index) => {
    const [action, reply] = exchangeText(index + 1);
    return [
      [index + 1, "user", action],
      [index + 1, "assistant", reply],
    ];
  });
  const values = resolveState(stats, {});
  let summaryThrough = 0;
  let summary = "";
  const today = measure();
  const cached = measure();
  let previousToday: string | undefined;
  let previousCached: string | undefined;
  let windowFull = false;
  for (let turn = 0; turn <= TURNS; turn += 1) {
    const exchange = story.length + 1;
    const rows = storyContextRows(story, exchange, budgetTokens);
    const conversation = storedConversation(rows.opening, rows.recent, exchange);
    const [message] = exchangeText(exchange);
    const trackedState: TrackedState = { stats, values: { ...values } };
    const memory = {
      summary,
      pinnedFacts: "I am the Empress Dowager Wen.\n- Gu Deshun keeps the Jade Seal.",
      authorNote: "Keep the court tense.",
    };
    const context = buildModelContext({ brief, conversation, message, budgetTokens, memory, trackedState });
    windowFull ||= conversation.hasGap || context.keptTurns < exchange - 2;

    const current = requestText([...context.system.map((content) => ({ role: "system", content })), ...context.messages]);
    record(cached, previousCached, current);
    previousCached = current;
    const old = requestText(todaysRequest(context, conversation.messages, { budgetTokens, message, authorNote: memory.authorNote, trackedState }));
    record(today, previousToday, old);
    previousToday = old;

    // The model's reply moves a stat; the summary is refreshed by the site's rule, after the turn.
    story.push(exchangeText(exchange).map((content, index) => [exchange, index === 0 ? "user" : "assistant", content] as Row));
    const first = stats.find((stat) => stat.kind === "number");
    if (first) values[first.name] = 40 + ((exchange * 7) % 50);
    const keptFrom = exchange - context.keptTurns;
    if (turn === 0 && size > EXCHANGES_PER_REFRESH) summaryThrough = Math.max(1, keptFrom - 1);
    while (summaryRefreshDue(summaryThrough, { keptFrom, latest: exchange })) {
      summaryThrough = Math.max(summaryThrough, 1) + EXCHANGES_PER_REFRESH;
    }
    summary =
      summaryThrough > 0 ? `The regency through exchange ${summaryThrough}: ${"the court shifts, alliances form and break. ".repeat(30)}` : "";
  }
  return { today, cached, windowFull };
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const rows: (string | number)[][] = [];
for (const budget of BUDGETS) {
  for (const size of SIZES) {
    const { today, cached, windowFull } = play(size, budget);
    const row = [
      budget.toLocaleString("en-US"),
      size.toLocaleString("en-US"),
      windowFull ? "yes" : "no",
      percent(median(today.shares)),
      percent(median(cached.shares)),
      median(today.inputs).toLocaleString("en-US"),
      median(cached.inputs).toLocaleString("en-US"),
      `$${((today.cost / TURNS) * 1000).toFixed(2)}`,
      `$${((cached.cost / TURNS) * 1000).toFixed(2)}`,
    ];
    rows.push(row);
    console.log(row.join("  "), "· new layout, each turn:", cached.shares.map((share) => `${Math.round(share * 100)}%`).join(" "));
  }
}

const table = markdownTable(
  [
    "Budget",
    "Exchanges",
    "Window full",
    "Repeated prefix, today",
    "Repeated prefix, new",
    "Input tokens/turn, today",
    "Input tokens/turn, new",
    "Input cost /1,000 turns, today",
    "Input cost /1,000 turns, new",
  ],
  rows,
);
writeReportSection(
  "prompt-cache",
  "A context the provider can cache (`prompt-cache`)",
  `Empress Simulator (its tracked stats and world), long player actions (about 110 words) and replies of about 120 with three choices, a model that changes a stat on every turn, the story's summary refreshed by the site's rule; 20 turns after each story's stored exchanges. Median over the 20 turns of the share of each request's tokens identical to the previous request's from the first byte (goal ≥ 90% once the window is full), median input tokens, and input cost per 1,000 turns at $${INPUT_PRICE_PER_MILLION.toFixed(2)} per million input tokens with cached input at ${CACHED_INPUT_SHARE}× (the repeated prefix, in OpenAI's 128-token steps from 1,024). "Today" is the layout before docs/decisions/055, rebuilt from the same parts in the bench (\`todaysRequest\`): the state, its rules and the omitted-turns note in the system message after the story's memory, the oldest exchange dropped one at a time.

${table}`,
);
