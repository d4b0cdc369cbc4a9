import { describe, expect, it } from "vitest";
import { dashboardPeriod, datasetRows, modelLabel, toCsv, type Dashboard } from "./admin-dashboard.ts";

describe("toCsv", () => {
  it("writes a header and rows with CRLF line ends", () => {
    expect(toCsv(["day", "turns"], [["2026-11-01", 3]])).toBe("day,turns\r\n2026-11-01,3\r\n");
  });

  it("quotes cells holding commas, quotes or line breaks, doubling the quotes", () => {
    expect(toCsv(["title"], [['The "Queen", again'], ["two\nlines"]])).toBe('title\r\n"The ""Queen"", again"\r\n"two\nlines"\r\n');
  });

  it("defuses text a spreadsheet would run as a formula, and leaves numbers alone", () => {
    expect(toCsv(["x"], [['=HYPERLINK("http://evil")'], ["+1"], ["-2"], ["@SUM(A1)"], [-5]])).toBe(
      'x\r\n"\'=HYPERLINK(""http://evil"")"\r\n\'+1\r\n\'-2\r\n\'@SUM(A1)\r\n-5\r\n',
    );
  });
});

describe("dashboardPeriod", () => {
  it("accepts 7, 30 and 90 days and falls back to 30", () => {
    expect(dashboardPeriod("7")).toBe(7);
    expect(dashboardPeriod("90")).toBe(90);
    expect(dashboardPeriod("365")).toBe(30);
    expect(dashboardPeriod(null)).toBe(30);
  });
});

describe("the reply ratings' figures", () => {
  const ratings = {
    ratings: [
      { day: "2026-11-01", good: 3, bad: 1 },
      { day: "2026-11-02", good: 0, bad: 0 },
    ],
    ratedGames: [{ slug: "empress-simulator", title: "Empress Simulator", good: 1, bad: 2 }],
    ratedModels: [
      { provider: "anthropic", model: "claude-story", good: 2, bad: 0 },
      { provider: null, model: null, good: 0, bad: 1 },
    ],
  } as Pick<Dashboard, "ratings" | "ratedGames" | "ratedModels"> as Dashboard;

  it("give the liked share as a fraction, and nothing for a day nobody rated", () => {
    expect(datasetRows(ratings, "ratings")).toEqual([
      ["2026-11-01", 3, 1, "0.7500"],
      ["2026-11-02", 0, 0, ""],
    ]);
    expect(datasetRows(ratings, "rated_games")).toEqual([["Empress Simulator", "empress-simulator", 1, 2, "0.3333"]]);
    expect(datasetRows(ratings, "rated_models")).toEqual([
      ["anthropic", "claude-story", 2, 0, "1.0000"],
      ["", "", 0, 1, "0.0000"],
    ]);
  });

  it("name a model by its id and provider, the offline storyteller by name, and replies before models were recorded as such", () => {
    expect(modelLabel({ provider: "anthropic", model: "claude-story" })).toBe("claude-story (anthropic)");
    expect(modelLabel({ provider: "offline", model: "offline-storyteller" })).toBe("Offline storyteller");
    expect(modelLabel({ provider: null, model: null })).toBe("Not recorded");
  });
});
