import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { choicesFor, harbourSession } from "./fixtures.ts";
import { ALL_GAMES, buildScorecard, METRICS, readThresholds, scorecardMarkdown } from "./scorecard.ts";

const RUN = { model: "a test model", date: "2026-11-27" };

/** A good harbour story: new sentences, fresh choices, the addressee answering. */
function goodStory(game: string) {
  return harbourSession(
    [
      { reply: `The fog lifts from the harbour.${choicesFor("gull")}`, firstTokenMs: 200, replyMs: 2000 },
      {
        step: { kind: "ask", to: "Captain Oren Dask", text: "Captain Dask, where is the cargo?" },
        reply: `Oren Dask scratches his beard. “Gone with the tide,” he says.${choicesFor("tide")}`,
        firstTokenMs: 400,
        replyMs: 3000,
      },
    ],
    game,
  );
}

/** The same story with the Harbormaster answering for the Captain and the first reply's choices again. */
function badStory(game: string) {
  const story = goodStory(game);
  const [first, second] = story.turns;
  if (!first || !second) throw new Error("The good story has two turns.");
  return { ...story, turns: [first, { ...second, reply: `Ilse Varga answers for him. “Gone.”${choicesFor("gull")}` }] };
}

describe("buildScorecard", () => {
  it("meets thresholds the sessions reach, for each game and for all games", () => {
    const card = buildScorecard(
      [goodStory("harbour"), goodStory("river")],
      { "answers-addressee": { min: 0.9 }, "choices-well-formed": { min: 1 } },
      RUN,
    );
    expect(card.misses).toEqual([]);
    const addressee = card.metrics.find((row) => row.id === "answers-addressee");
    expect(addressee?.overall).toMatchObject({ count: 2, of: 2 });
    expect(card.firstTokenMs[ALL_GAMES]).toEqual({ median: 200, p90: 400, count: 4 });
  });

  it("names every figure that misses its threshold, the game's and the total", () => {
    const card = buildScorecard(
      [goodStory("harbour"), badStory("river")],
      { "answers-addressee": { min: 0.9 }, "choices-well-formed": { min: 1 } },
      RUN,
    );
    expect(card.misses).toEqual([
      "The character spoken to answers (answers-addressee), river: 0%, goal ≥ 90%",
      "The character spoken to answers (answers-addressee), all games: 50%, goal ≥ 90%",
      "3–6 distinct, fresh numbered choices (choices-well-formed), river: 50%, goal ≥ 100%",
      "3–6 distinct, fresh numbered choices (choices-well-formed), all games: 75%, goal ≥ 100%",
    ]);
  });

  it("writes a Markdown scorecard with the misses marked and the failures listed", () => {
    const markdown = scorecardMarkdown(buildScorecard([badStory("river")], { "answers-addressee": { min: 0.9 } }, RUN));
    expect(markdown).toContain("# Game Master scorecard: a test model");
    expect(markdown).toContain("| The character spoken to answers `answers-addressee` | 0% (0/1) ✗ | 0% (0/1) ✗ | ≥ 90% |");
    expect(markdown).toContain("  - river, turn 2: Harbormaster Ilse Varga answered Captain Oren Dask");
    expect(markdown).toContain("**2 figures miss their goal.**");
  });
});

describe("readThresholds", () => {
  const file = (content: unknown) => {
    const name = path.join(mkdtempSync(path.join(tmpdir(), "gm-eval-thresholds-")), "thresholds.json");
    writeFileSync(name, JSON.stringify(content));
    return name;
  };

  it("reads the project's thresholds: the issue's goals, one for every metric", () => {
    const thresholds = readThresholds(path.join(import.meta.dirname, "thresholds.json"));
    expect(Object.keys(thresholds).sort()).toEqual(METRICS.map((metric) => metric.id).sort());
    expect(thresholds).toMatchObject({
      "repeated-sentences": { max: 0.05 },
      "answers-addressee": { min: 0.9 },
      "follows-movement": { min: 0.9 },
      "memory-recall": { min: 0.9 },
      "state-matches-prose": { min: 1 },
    });
  });

  it("refuses a metric it does not know and a threshold without a bound", () => {
    expect(() => readThresholds(file({ "fun-factor": { min: 0.5 } }))).toThrow(/is not a thresholds file/);
    expect(() => readThresholds(file({ agency: {} }))).toThrow(/needs min or max/);
  });
});
