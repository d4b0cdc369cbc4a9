import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { runProjectScript } from "#tests/helpers/process.ts";
import type { Scorecard } from "../../scripts/gm-eval/scorecard.ts";
import { BEGIN_MESSAGE } from "../../scripts/gm-eval/session-script.ts";
import type { PlayedSession } from "../../scripts/gm-eval/transcript.ts";

/**
 * `npm run gm:eval` end to end (its build step aside): the built site started on a PGlite
 * directory of its own, a player signed up and granted credits, a short Empress Simulator session
 * played through the HTTP API (a pinned fact and a question about it among its turns), the
 * scorecard written, and `--check` failing exactly when a figure misses its threshold. Whether
 * today's storyteller meets the thresholds is the scorecard's business, not this test's.
 */
const out = mkdtempSync(path.join(tmpdir(), "pae-gm-eval-out-"));
const TURNS = 8;

afterAll(() => rmSync(out, { recursive: true, force: true }));

it("plays a scripted session through the site and writes the scorecard; --check fails on a miss and names it", { timeout: 240_000 }, async () => {
  const run = await runProjectScript(
    ["scripts/gm-eval/run.ts", "--games", "empress-simulator", "--turns", String(TURNS), "--out", out, "--check"],
    { AI_PROVIDER: "offline", AI_OFFLINE_WORD_DELAY_MS: "0" },
  );

  const card = JSON.parse(readFileSync(path.join(out, "scorecard.json"), "utf8")) as Scorecard;
  expect(card.model).toBe("the offline storyteller");
  expect(card.games).toEqual([{ slug: "empress-simulator", title: "Empress Simulator", scriptVersion: 1, turns: TURNS }]);
  expect(run.code, run.stderr).toBe(card.misses.length > 0 ? 1 : 0);
  for (const miss of card.misses) expect(run.stderr).toContain(miss);
  expect(run.stdout).toContain("# Game Master scorecard: the offline storyteller");

  const { sessions } = JSON.parse(readFileSync(path.join(out, "sessions.json"), "utf8")) as { sessions: PlayedSession[] };
  const [session] = sessions;
  expect(session?.turns.map((turn) => turn.error)).toEqual(Array.from({ length: TURNS }, () => undefined));
  expect(session?.turns[0]?.message).toBe(BEGIN_MESSAGE);
  expect(session?.turns.map((turn) => turn.step.kind)).toContain("recall");
  // The script's Continue follows its first move (turn 7): that turn's reply is the extended one.
  const moved = session?.turns.find((turn) => turn.step.kind === "move");
  expect(moved?.controls?.map((control) => [control.kind, control.error])).toEqual([["continue", undefined]]);
  for (const turn of session?.turns ?? []) {
    expect(turn.reply.length).toBeGreaterThan(0);
    expect(turn.state).toHaveProperty("Grace");
    expect(turn.replyMs).toBeGreaterThan(0);
  }
  expect(session?.stats.map((stat) => stat.name)).toContain("Private Treasury");

  for (const file of ["scorecard.md", "transcripts/empress-simulator.md", "empress-simulator-30-turns.md"])
    expect(existsSync(path.join(out, file)), file).toBe(true);
  expect(readFileSync(path.join(out, "empress-simulator-30-turns.md"), "utf8")).toContain(`**Turn ${TURNS}. You:**`);
});
