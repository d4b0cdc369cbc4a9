import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

/** The project's eslint.config.js, running its import rule alone (so a probe needs no type information). */
const eslint = new ESLint({
  cwd: path.resolve(import.meta.dirname, ".."),
  ruleFilter: ({ ruleId }) => ruleId === "no-restricted-imports",
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

async function refused(filePath: string, source: string) {
  const [result] = await eslint.lintText(source, { filePath });
  const messages = result?.messages ?? [];
  const fatal = messages.find((message) => message.fatal);
  if (fatal) throw new Error(fatal.message);
  return messages.some((message) => message.ruleId === "no-restricted-imports");
}

describe("the layers (routes → http → domain → db → lib)", () => {
  it("refuse an import from a layer above", async () => {
    const cases: [string, string][] = [
      ["app/http/probe.ts", 'import "../routes/about.tsx";'],
      ["app/http/probe.ts", 'import "#app/components/toast.ts";'],
      ["app/domain/probe.ts", 'import "../http/limits.ts";'],
      ["app/domain/game-master/probe.ts", 'import "#app/routes/about.tsx";'],
      ["app/domain/probe.ts", 'import { redirect } from "react-router";'],
      ["app/domain/probe.ts", 'import "#server/app.ts";'],
      ["app/db/probe.ts", 'import "../domain/errors.server.ts";'],
      ["app/db/seed/probe.ts", 'import "#app/http/limits.ts";'],
      ["app/lib/probe.ts", 'import "../env.server.ts";'],
      ["app/lib/probe.ts", 'import "#app/domain/errors.server.ts";'],
    ];
    for (const [filePath, source] of cases)
      expect({ filePath, source, refused: await refused(filePath, source) }).toMatchObject({ refused: true });
  });

  it("let a layer import the layers below it and third-party packages", async () => {
    const cases: [string, string][] = [
      ["app/http/probe.ts", 'import "../domain/errors.server.ts";'],
      ["app/domain/probe.ts", 'import "../db/schema.ts";'],
      ["app/domain/probe.ts", 'import "#app/lib/constants.ts";'],
      ["app/db/probe.ts", 'import "../lib/constants.ts";'],
      ["app/lib/probe.ts", 'import "./constants.ts";'],
      ["app/lib/probe.ts", 'import { z } from "zod";'],
    ];
    for (const [filePath, source] of cases)
      expect({ filePath, source, refused: await refused(filePath, source) }).toMatchObject({ refused: false });
  });
});

describe("the offline storyteller's folder (app/domain/game-master/offline/)", () => {
  it("is imported only by the model factory and the preview, each through its one module", async () => {
    const refusedCases: [string, string][] = [
      ["app/domain/game-master/probe.server.ts", 'import "./offline/narrator.server.ts";'],
      ["app/domain/game-master/probe.server.ts", 'import "./offline/storyteller.server.ts";'],
      ["app/domain/stories.server.ts", 'import "./game-master/offline/playthrough.server.ts";'],
      ["app/routes/probe.tsx", 'import "#app/domain/game-master/offline/world.server.ts";'],
      ["app/http/probe.ts", 'import "../domain/game-master/offline/storyteller.server.ts";'],
      ["scripts/probe.ts", 'import "#app/domain/game-master/offline/playthrough.server.ts";'],
      ["tests/integration/probe.test.ts", 'import "../../app/domain/game-master/offline/world.server.ts";'],
      ["app/domain/game-master/model.server.ts", 'import "./offline/narrator.server.ts";'],
      ["app/domain/game-master/model.server.ts", 'import "./offline/playthrough.server.ts";'],
      ["app/domain/game-master/preview.server.ts", 'import "./offline/storyteller.server.ts";'],
      // The entry points are still domain modules.
      ["app/domain/game-master/model.server.ts", 'import "#app/routes/about.tsx";'],
    ];
    for (const [filePath, source] of refusedCases)
      expect({ filePath, source, refused: await refused(filePath, source) }).toMatchObject({ refused: true });
    const allowed: [string, string][] = [
      ["app/domain/game-master/model.server.ts", 'import "./offline/storyteller.server.ts";'],
      ["app/domain/game-master/preview.server.ts", 'import "./offline/playthrough.server.ts";'],
      ["app/domain/game-master/offline/narrator.server.ts", 'import "./world.server.ts";'],
      ["app/domain/game-master/offline/narrator.server.ts", 'import "../story-brief.server.ts";'],
    ];
    for (const [filePath, source] of allowed)
      expect({ filePath, source, refused: await refused(filePath, source) }).toMatchObject({ refused: false });
  });
});
