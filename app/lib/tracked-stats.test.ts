import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "./admin-forms.ts";
import { applyStateChanges, resolveState, startingState, statChange, statDraft, trackedStatsSchema, type TrackedStat } from "./tracked-stats.ts";

const stats: TrackedStat[] = [
  { name: "Favour", kind: "number", min: 0, max: 100, start: 40 },
  { name: "Rank", kind: "text", start: "Empress Dowager" },
  { name: "Allies", kind: "list", start: ["Madam Lin"] },
];

describe("trackedStatsSchema", () => {
  it("reads the admin form's drafts, numbers as typed and a list as one line", () => {
    expect(
      trackedStatsSchema.parse([
        { name: " Favour ", kind: "number", min: "0", max: "100", start: "40" },
        { name: "Rank", kind: "text", min: "", max: "", start: " Empress Dowager " },
        { name: "Allies", kind: "list", min: "", max: "", start: "Madam Lin, , Madam Lin" },
      ]),
    ).toEqual(stats);
  });

  it("reads stored stats back unchanged, through the form's drafts too", () => {
    expect(trackedStatsSchema.parse(stats)).toEqual(stats);
    expect(trackedStatsSchema.parse(stats.map(statDraft))).toEqual(stats);
  });

  it("says what is wrong with each field", () => {
    const result = trackedStatsSchema.safeParse([
      { name: "Favour", kind: "number", min: "10", max: "5", start: "7" },
      { name: "favour", kind: "text", start: "" },
      { name: "Gold", kind: "number", min: "0", max: "100", start: "101" },
      { name: "Age", kind: "number", min: "0", max: "1.5", start: "1" },
      { name: "<b>", kind: "text", start: "" },
      { name: "", kind: "list", start: "" },
    ]);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(fieldErrorsOf(result.error)).toEqual({
      "0.max": "The lowest value must be below the highest.",
      "1.name": "Two stats cannot share a name.",
      "2.start": "The starting value must be within the range.",
      "3.max": "Use a whole number.",
      "4.name": "A stat's name cannot contain < > { } [ ] or quotes.",
      "5.name": "Each stat needs a name.",
    });
  });

  it("allows at most eight stats", () => {
    const many = Array.from({ length: 9 }, (_, index) => ({ name: `Stat ${index}`, kind: "text", start: "" }));
    expect(trackedStatsSchema.safeParse(many).success).toBe(false);
  });
});

describe("applyStateChanges", () => {
  const before = { Favour: 40, Rank: "Empress Dowager", Allies: ["Madam Lin"] };

  it("changes the stats a block names, matching names in any case and spacing", () => {
    expect(applyStateChanges(stats, before, { favour: 45, "  RANK ": "Regent", allies: ["Madam Lin", "Pei Zhen"] })).toEqual({
      Favour: 45,
      Rank: "Regent",
      Allies: ["Madam Lin", "Pei Zhen"],
    });
  });

  it("rounds numbers into range and reads numbers and lists written as text", () => {
    expect(applyStateChanges(stats, before, { Favour: "140.6", Allies: "Pei Zhen, Han Qiu" })).toMatchObject({
      Favour: 100,
      Allies: ["Pei Zhen", "Han Qiu"],
    });
    expect(applyStateChanges(stats, before, { Favour: -3.4 })).toMatchObject({ Favour: 0 });
  });

  it("leaves the state as it was for anything it cannot read", () => {
    for (const garbled of [
      undefined,
      null,
      "Favour 45",
      [45],
      { Favour: "high", Rank: { title: "x" }, Allies: 3, Gold: 10 },
      { Rank: "x".repeat(81) },
    ]) {
      expect(applyStateChanges(stats, before, garbled)).toEqual(before);
    }
  });

  it("gives new or renamed stats their starting value", () => {
    expect(resolveState(stats, { Favor: 90 })).toEqual(startingState(stats));
    expect(resolveState(stats, null)).toEqual({ Favour: 40, Rank: "Empress Dowager", Allies: ["Madam Lin"] });
  });
});

describe("statChange", () => {
  const [favour, rank, allies] = stats as [TrackedStat, TrackedStat, TrackedStat];
  it("tells how a stat moved", () => {
    expect(statChange(favour, 40, 45)).toEqual({ kind: "number", delta: 5 });
    expect(statChange(favour, 40, 40)).toBeUndefined();
    expect(statChange(rank, "Dowager", "Regent")).toEqual({ kind: "text", from: "Dowager" });
    expect(statChange(allies, ["A", "B"], ["B", "C"])).toEqual({ kind: "list", added: ["C"], removed: ["A"] });
    expect(statChange(allies, ["A"], ["A"])).toBeUndefined();
  });
});
