/**
 * `npm run gm:eval`: the scorecard for any Game Master (issue 33). Starts the built site on a
 * temporary PGlite directory with whatever model the environment configures (the offline
 * storyteller by default; the README's AI_* variables for a real one), signs up a player per game,
 * grants credits with the support command, plays each game's scripted session through the HTTP API,
 * and prints and writes the scorecard.
 *
 *   npm run gm:eval -- [--out gm-eval] [--check] [--games empress-simulator,…] [--turns 60]
 *                      [--thresholds scripts/gm-eval/thresholds.json] [--docs]
 *
 * --out       where to write scorecard.json / .md, sessions.json, each game's transcript and the
 *             first 30 turns of Empress Simulator (default gm-eval/, git-ignored)
 * --check     exit 1 when a figure misses its threshold, naming each
 * --games     play only these games
 * --turns     turns per session (default 60: the issue's "long session of 50+ turns")
 * --docs      also write the scorecard into docs/gm-eval.md (for the offline storyteller's figures)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadSeedGames } from "#app/db/seed/seed.server.ts";
import { signUp, uniqueEmail } from "#tests/helpers/accounts.ts";
import { runProjectScript, startServerProcess } from "#tests/helpers/process.ts";
import { playSession } from "./play.ts";
import { buildScorecard, readThresholds, scorecardMarkdown } from "./scorecard.ts";
import { DEFAULT_SESSION_TURNS, sessionSteps } from "./session-script.ts";
import { SESSION_SCRIPTS } from "./session-scripts.ts";
import { transcriptMarkdown, type PlayedSession } from "./transcript.ts";

const PROJECT = path.resolve(import.meta.dirname, "../..");
/** The transcript the issue's closing note quotes. */
const QUOTED_TRANSCRIPT = { game: "empress-simulator", turns: 30 };
const DOCS = path.join(PROJECT, "docs/gm-eval.md");
const DOCS_SECTION = { start: "<!-- gm-eval:scorecard -->", end: "<!-- /gm-eval:scorecard -->" };

const { values: options } = parseArgs({
  options: {
    out: { type: "string", default: "gm-eval" },
    check: { type: "boolean", default: false },
    games: { type: "string" },
    turns: { type: "string", default: String(DEFAULT_SESSION_TURNS) },
    thresholds: { type: "string", default: path.join(import.meta.dirname, "thresholds.json") },
    docs: { type: "boolean", default: false },
  },
});

const turns = Number(options.turns);
if (!Number.isInteger(turns) || turns < 1) throw new Error(`--turns takes a whole number of turns, not "${options.turns}".`);
const wanted = options.games?.split(",").map((slug) => slug.trim());
const scripts = SESSION_SCRIPTS.filter((script) => !wanted || wanted.includes(script.game));
const unknown = wanted?.filter((slug) => !SESSION_SCRIPTS.some((script) => script.game === slug)) ?? [];
if (unknown.length > 0) {
  throw new Error(`No session script for ${unknown.join(", ")}; there are: ${SESSION_SCRIPTS.map((script) => script.game).join(", ")}.`);
}
const thresholds = readThresholds(options.thresholds);
const titles = new Map(loadSeedGames().map((seed) => [seed.game.slug, seed.game.title]));
const outDir = path.resolve(PROJECT, options.out);

/** The model the site will use, as the scorecard names it. */
function modelName() {
  const provider = process.env.AI_PROVIDER ?? "offline";
  return provider === "offline" ? "the offline storyteller" : `${process.env.AI_MODEL ?? "(no AI_MODEL)"} (${provider})`;
}

const dataDir = mkdtempSync(path.join(tmpdir(), "pae-gm-eval-"));
const startedAt = performance.now();
console.log(`Starting the built site on a temporary PGlite database, Game Master: ${modelName()}…`);
const server = await startServerProcess({
  DATA_DIR: dataDir,
  // Always a database of its own: never the one DATABASE_URL may name.
  DATABASE_URL: undefined,
  AI_OFFLINE_WORD_DELAY_MS: process.env.AI_OFFLINE_WORD_DELAY_MS ?? "0",
  CHAT_TURNS_PER_MINUTE: "100000",
  REQUIRE_EMAIL_VERIFICATION: "false",
  LOG_LEVEL: "warn",
});

const sessions: PlayedSession[] = [];
try {
  for (const script of scripts) {
    // A player per game: a new story's opening is free at most three times a minute (OPENINGS_PER_MINUTE).
    const email = uniqueEmail("gm-eval");
    const account = await signUp({ url: server.url, fetch: (pathname, init) => fetch(new URL(pathname, server.url), init) }, { email });
    const grant = await runProjectScript(["scripts/cli.ts", "credits:grant", email, String(turns + 10)], {
      DATA_DIR: dataDir,
      DATABASE_URL: undefined,
    });
    if (grant.code !== 0) throw new Error(`credits:grant failed: ${grant.stderr || grant.stdout}`);
    const title = titles.get(script.game) ?? script.game;
    process.stdout.write(`${title} (script v${script.version}): `);
    const session = await playSession({ url: server.url, token: account.token }, script, sessionSteps(script, turns), {
      title,
      onTurn: (turn) => process.stdout.write(turn.error ? "x" : "."),
    });
    process.stdout.write("\n");
    sessions.push(session);
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const model = modelName();
const card = buildScorecard(sessions, thresholds, { model, date: new Date().toISOString().slice(0, 10) });
const markdown = scorecardMarkdown(card);

mkdirSync(path.join(outDir, "transcripts"), { recursive: true });
writeFileSync(path.join(outDir, "scorecard.json"), `${JSON.stringify(card, null, 2)}\n`);
writeFileSync(path.join(outDir, "scorecard.md"), markdown);
writeFileSync(path.join(outDir, "sessions.json"), `${JSON.stringify({ model, sessions }, null, 2)}\n`);
for (const session of sessions) writeFileSync(path.join(outDir, "transcripts", `${session.game}.md`), transcriptMarkdown(session, { model }));
const quoted = sessions.find((session) => session.game === QUOTED_TRANSCRIPT.game);
if (quoted) {
  const file = path.join(outDir, `${QUOTED_TRANSCRIPT.game}-${QUOTED_TRANSCRIPT.turns}-turns.md`);
  writeFileSync(file, transcriptMarkdown(quoted, { model, turns: QUOTED_TRANSCRIPT.turns }));
}

if (options.docs) {
  const current = readFileSync(DOCS, "utf8");
  const start = current.indexOf(DOCS_SECTION.start);
  const end = current.indexOf(DOCS_SECTION.end);
  if (start < 0 || end < start) throw new Error(`${DOCS} has no ${DOCS_SECTION.start} … ${DOCS_SECTION.end} section to write the scorecard into.`);
  // The scorecard's own title becomes a subsection of the page.
  const section = markdown.replace(/^# /, "## ").replace(/^## (?!Game Master scorecard)/gm, "### ");
  writeFileSync(DOCS, `${current.slice(0, start + DOCS_SECTION.start.length)}\n${section.trim()}\n${current.slice(end)}`);
}

console.log(`\n${markdown}`);
const shownOut = path.relative(PROJECT, outDir);
console.log(
  `Written to ${shownOut.startsWith("..") ? outDir : `${shownOut || "."}/`} in ${((performance.now() - startedAt) / 1000).toFixed(0)} s.`,
);
if (options.check && card.misses.length > 0) {
  console.error(`\n--check: ${card.misses.length} figures miss their threshold:\n${card.misses.map((miss) => `  - ${miss}`).join("\n")}`);
  process.exitCode = 1;
}
