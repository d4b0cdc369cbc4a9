import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ContextCall, ContextManifest, ContextView } from "#app/lib/context-manifest.ts";
import { ContextCalls } from "./context-viewer.tsx";

/** What the Game Master sees, as the dialog draws a manifest (docs/decisions/062, 066). */

const call: ContextCall = {
  kind: "send",
  provider: "offline",
  model: "offline-storyteller",
  inputTokens: 400,
  cachedInputTokens: 100,
  outputTokens: 120,
  estimated: true,
  outcome: "ok",
  cost: null,
  currency: null,
  createdAt: "2026-11-28T04:00:00.000Z",
};

/** A manifest as stored before lore entries were named by id: titles only. */
const withoutIds: ContextManifest = {
  sections: [
    { kind: "instructions", tokens: 200 },
    { kind: "lore", source: "game", title: "The guard", placement: "message", key: "guard", words: ["Guard"], tokens: 20 },
    { kind: "message", tokens: 30 },
  ],
  loreCut: [{ source: "story", title: "The old harbour" }],
  budgetTokens: 8000,
};

const text = (view: ContextView) =>
  renderToStaticMarkup(<ContextCalls view={view} />)
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ");

describe("What the Game Master sees", () => {
  it("draws a manifest written before lore had ids, by its titles", () => {
    const shown = text({ calls: [{ manifest: withoutIds, call }], instructions: null, check: null });
    expect(shown).toContain("World lore: The guard");
    expect(shown).toContain("fired by “guard” on “Guard” in your message");
    expect(shown).toContain("Lore left out for room: The old harbour");
    // One call: no headings of calls.
    expect(shown).not.toContain("The reply");
  });

  it("shows each call of a continued reply under its own heading, in order, with its own usage", () => {
    const renamed: ContextManifest = {
      ...withoutIds,
      sections: withoutIds.sections.map((section) => (section.kind === "lore" ? { ...section, id: "7c0e", title: "The night guard" } : section)),
    };
    const html = renderToStaticMarkup(
      <ContextCalls
        view={{
          calls: [
            { manifest: withoutIds, call },
            { manifest: renamed, call: { ...call, kind: "continue", inputTokens: 520 } },
            { manifest: renamed, call: { ...call, kind: "continue", inputTokens: 640, outputTokens: 0, outcome: "empty" } },
          ],
          instructions: null,
          check: null,
        }}
      />,
    );
    expect([...html.matchAll(/<h3[^>]*>([^<]*)<\/h3>/g)].map((match) => match[1])).toEqual([
      "The reply",
      "Continue 1",
      "Continue 2 (wrote nothing)",
    ]);
    const shown = html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
    expect(shown.indexOf("400 tokens")).toBeLessThan(shown.indexOf("520 tokens"));
    expect(shown.indexOf("520 tokens")).toBeLessThan(shown.indexOf("640 tokens"));
    expect(shown).toContain("World lore: The night guard");
    expect(html.match(/aria-label="Parts of the context, in order"/g)).toHaveLength(3);
  });

  it("names a Continue as such when its reply's own call was never recorded (a seeded opening)", () => {
    const html = renderToStaticMarkup(
      <ContextCalls view={{ calls: [{ manifest: withoutIds, call: { ...call, kind: "continue" } }], instructions: null, check: null }} />,
    );
    expect([...html.matchAll(/<h3[^>]*>([^<]*)<\/h3>/g)].map((match) => match[1])).toEqual(["Continue 1"]);
  });
});
