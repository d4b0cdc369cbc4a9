import { describe, expect, it } from "vitest";
import { narrateTurn } from "./offline-narrator.server.ts";
import { createOfflineStoryteller } from "./offline-storyteller.server.ts";
import { parseStatusLine, readWorld } from "./offline-world.server.ts";
import { streamReply } from "./reply-stream.server.ts";
import { renderSystemPrompt, type StoryBrief } from "./story-brief.server.ts";

const brief: StoryBrief = {
  title: "Lantern Harbor",
  prompt: [
    "Fog lies on Lantern Harbor like wet wool. You are the new harbormaster's deputy, and tonight three ships are late.",
    "You are the Game Master of Lantern Harbor. Characters: Ilse Varga, the harbormaster who counts every ship; Oren Dask, a smuggler with debts; Mirela Stone, keeper of the Lamp Tower.",
    "Track the stats and show them like this: **Coin 40 · Favour 55 · Suspicion 10 · Purse 1,200 silver**. End every reply with 3 to 6 numbered choices.",
  ].join("\n\n"),
  sections: [
    {
      contentType: "world_setting",
      title: "The Harbor",
      content:
        "## Places\n\n- **The Salt Quay**: where the night boats unload crates nobody declares.\n- **The Lamp Tower**: the lighthouse whose keeper sees every ship.\n\n## Powers\n\n- **The Lamplighters' Guild**: they light the city and know its secrets.",
    },
    {
      contentType: "combat_mechanics",
      title: "Troubles",
      content:
        "## Troubles\n\n- **Customs raids**: the harbormaster's men search a warehouse at dawn.\n- **Storms**, which close the harbor for days.",
    },
  ],
};

const world = readWorld(brief);

function choicesOf(reply: string) {
  const lines = reply.trimEnd().split("\n");
  let start = lines.length;
  while (start > 0 && /^\d\. /.test(lines[start - 1] ?? "")) start -= 1;
  return lines.slice(start);
}

describe("reading the world", () => {
  it("finds the cast, places, groups, troubles and stats of the game", () => {
    expect(world.people.map((person) => person.name)).toEqual(["Ilse Varga", "Oren Dask", "Mirela Stone"]);
    expect(world.places.map((place) => place.name)).toEqual(["The Salt Quay", "The Lamp Tower"]);
    expect(world.groups.map((group) => group.name)).toEqual(["The Lamplighters' Guild"]);
    expect(world.challenges).toEqual([
      { name: "Customs raids", detail: "the harbormaster's men search a warehouse at dawn." },
      { name: "Storms", detail: ", which close the harbor for days." },
    ]);
    expect(world.opening).toMatch(/^Fog lies on Lantern Harbor/);
    expect(parseStatusLine(brief.prompt)?.stats.map((stat) => [stat.label, stat.value, stat.kind])).toEqual([
      ["Coin", 40, "score"],
      ["Favour", 55, "score"],
      ["Suspicion", 10, "score"],
      ["Purse", 1200, "money"],
    ]);
  });
});

describe("narrateTurn", () => {
  it("opens the story with the game's own scene and ends with 3 to 6 numbered choices", () => {
    const reply = narrateTurn({ world, action: "I'm ready!", previousReplies: [] });
    expect(reply.startsWith("Fog lies on Lantern Harbor like wet wool.")).toBe(true);
    expect(reply).toContain("**Coin 40 · Favour 55 · Suspicion 10 · Purse 1,200 silver**");
    const choices = choicesOf(reply);
    expect(choices.length).toBeGreaterThanOrEqual(3);
    expect(choices.length).toBeLessThanOrEqual(6);
    choices.forEach((choice, index) => expect(choice).toMatch(new RegExp(`^${index + 1}\\. \\S`)));
  });

  it("answers the player's action in the second person, with the person they named reacting", () => {
    const reply = narrateTurn({ world, action: 'I ask Oren about the crates. "Who paid you?"', previousReplies: ["Earlier."] });
    expect(reply).toContain('You ask Oren about the crates. "Who paid you?"');
    expect(reply.split("\n\n")[1]).toContain("Oren Dask");
  });

  it("takes the player where they go, and tells them what they find when they look", () => {
    const went = narrateTurn({ world, action: "I walk to the Lamp Tower.", previousReplies: ["Earlier."] });
    expect(went).toContain("the Lamp Tower");
    expect(went).toContain("the lighthouse whose keeper sees every ship.");
    const looked = narrateTurn({ world, action: "I search the Salt Quay for clues.", previousReplies: ["Earlier."] });
    expect(looked).toContain("The Salt Quay, where the night boats unload crates nobody declares.");
  });

  it("is deterministic, and varies from turn to turn", () => {
    const first = narrateTurn({ world, action: "I wait.", previousReplies: ["One."] });
    expect(narrateTurn({ world, action: "I wait.", previousReplies: ["One."] })).toBe(first);
    expect(narrateTurn({ world, action: "I wait.", previousReplies: ["One.", first] })).not.toBe(first);
    expect(narrateTurn({ world, action: "I wait quietly.", previousReplies: ["One."] })).not.toBe(first);
  });

  it("carries the stats forward from the last reply and moves them with the action", () => {
    const previous = "Story so far.\n\n**Coin 30 · Favour 50 · Suspicion 20 · Purse 900 silver**";
    const reply = narrateTurn({ world, action: "I bribe the guard with a gift of silver.", previousReplies: [previous] });
    const status = parseStatusLine(reply);
    expect(status?.stats.map((stat) => stat.label)).toEqual(["Coin", "Favour", "Suspicion", "Purse"]);
    const purse = status?.stats.find((stat) => stat.label === "Purse");
    expect(purse?.value).toBeLessThan(900);
    expect(reply).toMatch(/Purse [\d,]+ silver \(−[\d,]+\)/);
    for (const stat of status?.stats ?? []) if (stat.kind === "score") expect(stat.value).toBeGreaterThanOrEqual(0);
  });

  it("still tells a story for a game with nothing but a prompt", () => {
    const bare = readWorld({ title: "Bare", prompt: "You are the Game Master.", sections: [] });
    const reply = narrateTurn({ world: bare, action: "I look around.", previousReplies: [] });
    expect(reply).toContain("You look around.");
    expect(choicesOf(reply).length).toBeGreaterThanOrEqual(3);
  });
});

describe("the offline storyteller model", () => {
  const system = renderSystemPrompt(brief, brief.sections);

  /** The reply as a turn reads it (streamReply): its text pieces, finish reason, and the error that ended it. */
  async function tell(action: string, options: { wordDelayMs?: number; maxOutputTokens?: number; abortAfterPieces?: number } = {}) {
    const controller = new AbortController();
    const stream = await streamReply({
      model: createOfflineStoryteller({ wordDelayMs: options.wordDelayMs ?? 0 }),
      system,
      messages: [{ role: "user", content: action }],
      maxOutputTokens: options.maxOutputTokens ?? 4_000,
      maxRetries: 0,
      abortSignal: controller.signal,
    });
    const pieces: string[] = [];
    let finishReason: string | undefined;
    let failure: unknown;
    try {
      for await (const part of stream) {
        if (part.type === "finish") finishReason = part.finishReason.unified;
        if (part.type !== "text-delta") continue;
        pieces.push(part.delta);
        if (pieces.length === options.abortAfterPieces) controller.abort(new Error("the player left"));
      }
    } catch (error) {
      failure = error;
    }
    return { pieces, text: pieces.join(""), finishReason, failure };
  }

  it("streams its reply word by word, reassembling exactly", async () => {
    const { pieces, text, finishReason } = await tell("I light a lantern.");
    const expected = narrateTurn({ world, action: "I light a lantern.", previousReplies: [] });
    expect(text).toBe(expected);
    expect(pieces.length).toBeGreaterThan(expected.split(" ").length / 2);
    expect(finishReason).toBe("stop");
  });

  it("respects the reply cap", async () => {
    const { text, finishReason } = await tell("Go.", { maxOutputTokens: 20 });
    expect(text.length).toBeLessThan(100);
    expect(finishReason).toBe("length");
  });

  it("stops when aborted", async () => {
    const { pieces, finishReason, failure } = await tell("Go.", { wordDelayMs: 20, abortAfterPieces: 2 });
    expect(pieces).toHaveLength(2);
    expect(finishReason).toBeUndefined();
    expect(failure).toEqual(new Error("the player left"));
  });
});
