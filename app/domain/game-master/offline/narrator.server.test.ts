import { describe, expect, it } from "vitest";
import { narrateTurn } from "./narrator.server.ts";
import { FRAMES } from "./phrases.server.ts";
import { brief, choicesOf, world } from "./story-test-data.ts";
import { fill } from "./teller.server.ts";
import { parseStatusLine } from "./status-line.server.ts";
import { readWorld } from "./world.server.ts";
import type { StoryBrief } from "../story-brief.server.ts";

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

  it("answers a question put to someone with that person answering, without saying the question back", () => {
    const reply = narrateTurn({ world, action: 'I ask Oren about the crates. "Who paid you?"', previousReplies: ["Earlier."] });
    const [scene, answer] = reply.split("\n\n");
    expect(scene).toMatch(/^\*Day \d+, (morning|afternoon|evening|night) — the Salt Quay\*$/);
    expect(answer).not.toContain("You ask Oren");
    expect(answer).toMatch(/^[^“]*Oren Dask/);
    // The answer comes from the world: what the content says about crates.
    expect(answer).toContain("the night boats unload crates nobody declares");
  });

  it("takes the player where they go, and tells them what they find when they look", () => {
    const went = narrateTurn({ world, action: "I walk to the Lamp Tower.", previousReplies: ["Earlier."] });
    expect(went).toContain("the Lamp Tower");
    expect(went).toContain("the lighthouse whose keeper sees every ship.");
    const looked = narrateTurn({ world, action: "I search the Salt Quay for clues.", previousReplies: ["Earlier."] });
    expect(looked).toContain("The Salt Quay is where the night boats unload crates nobody declares.");
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

describe("what a new player does", () => {
  const opening = narrateTurn({ world, action: "Yes, I am ready. Begin the adventure!", previousReplies: [] });
  const offered = choicesOf(opening).map((line) => line.replace(/^\d\. /, ""));
  const after = (action: string, previousReplies = [opening], previousActions = ["Yes, I am ready. Begin the adventure!"]) =>
    narrateTurn({ world, action, previousReplies, previousActions });

  it("is met by the opening scene, addressed by their role, when they say they are ready", () => {
    expect(opening.startsWith("Fog lies on Lantern Harbor")).toBe(true);
    expect(opening).toContain("You are the new harbormaster's deputy");
    expect(opening).toContain("Deputy?**");
    expect(opening).not.toMatch(/You decide|yes, you are ready/i);
  });

  it("picks a choice by its number, by its number with a dot, by its text or by saying so", () => {
    const second = offered[1] ?? "";
    expect(second).not.toBe("");
    const told = `You ${second.charAt(0).toLowerCase()}${second.slice(1)}`;
    for (const typed of ["2", "2.", " 2 ", second, second.toUpperCase(), "I choose 2"]) expect(after(typed), typed).toContain(told);
    expect(after("2")).not.toMatch(/You decide to 2|You say: “2/);
    expect(after("9")).toContain("You hesitate");
  });

  it("answers a question in the scene from what the world says", () => {
    const who = after("Who is Oren Dask?");
    expect(who).toContain("a smuggler with debts");
    expect(who).toMatch(/“[^”]*Oren Dask[^”]*”/);
    const where = after("Where is the Lamp Tower?");
    expect(where).toContain("the lighthouse whose keeper sees every ship");
    const unknown = after("Who is Zhang Weiming?");
    expect(unknown).toMatch(/“[^”]+”/);
    for (const reply of [who, where, unknown]) expect(reply).not.toMatch(/You decide|question hangs/);
  });

  it("uses the name the player gives, in every later reply, after the message that gave it has left the context", () => {
    const named = after("My name is Lin.");
    expect(named).toContain("Lin");
    expect(named).toContain("**");
    // The next turns see only the newest replies: the name travels in them.
    let replies = [named];
    for (const action of ["I walk to the Lamp Tower.", "3", "I wait."]) {
      const reply = narrateTurn({ world, action, previousReplies: replies.slice(-1), previousActions: [] });
      expect(reply, action).toMatch(/\*\*[^*]*, Lin[.?]\*\*/);
      replies = [...replies, reply];
    }
  });

  it("keeps the story's clock and place from the latest scene line, however few replies it sees", () => {
    const earlier = "*Day 7, evening — the Lamp Tower*\n\nSomething happened.";
    const reply = narrateTurn({ world, action: "I wait.", previousReplies: [earlier] });
    expect(reply.split("\n")[0]).toBe("*Day 7, night — the Lamp Tower*");
    const moved = narrateTurn({ world, action: "I go to the Salt Quay.", previousReplies: [earlier] });
    expect(moved.split("\n")[0]).toBe("*Day 7, night — the Salt Quay*");
  });

  it("writes a different reply when retried, and more prose only when continued", () => {
    const first = after("I wait.");
    const retried = narrateTurn({ world, action: "I wait.", previousReplies: [opening], previousActions: [], variant: 2 });
    expect(retried).not.toBe(first);
    const more = narrateTurn({ world, action: "I wait.", previousReplies: [opening, first], previousActions: [""], extending: true });
    expect(choicesOf(more)).toEqual([]);
    expect(more).not.toMatch(/^\*Day/);
    for (const paragraph of more.split("\n\n")) expect(first).not.toContain(paragraph);
  });

  it("never repeats the game's notes to its narrator", () => {
    const noted = readWorld({
      title: "Noted",
      prompt:
        "Rain falls on Saltmere. You are a courier with one undelivered letter.\n\nYou are the Game Master. Characters: Wynn Hale, the player's oldest friend (an optional romance); Dora Vell, a clerk who starts the game in your debt.",
      sections: [
        {
          contentType: "world_setting",
          title: "Saltmere",
          content:
            "## Places\n\n- **The Post House**: where the player starts the game.\n- **The Tide Steps**: the stairs the sea climbs at night.",
        },
      ],
    });
    expect(noted.people).toEqual([
      { name: "Wynn Hale", detail: "your oldest friend" },
      { name: "Dora Vell", detail: "a clerk who is in your debt" },
    ]);
    const replies = ["Who is Wynn Hale?", "Where is the Post House?", "I go to the Tide Steps."].map((action) =>
      narrateTurn({ world: noted, action, previousReplies: ["Earlier."] }),
    );
    for (const reply of replies) expect(reply).not.toMatch(/player|Game Master|optional|romance|\(|\[|\{/);
  });
});

describe("the phrases", () => {
  it.each(Object.entries(FRAMES))("frame %s has more than 50 distinct opener-closer pairs, each phrase once", (_name, frame) => {
    expect(frame.openers.length * frame.closers.length).toBeGreaterThan(50);
    expect(new Set(frame.openers).size).toBe(frame.openers.length);
    expect(new Set(frame.closers).size).toBe(frame.closers.length);
  });

  it("fills every slot or refuses to", () => {
    expect(fill("“Careful{, you}.” {Who} waits.", { you: "Your Majesty", who: "the Chief Eunuch" })).toBe(
      "“Careful, Your Majesty.” The Chief Eunuch waits.",
    );
    expect(fill("“Careful{, you}.”", { you: "" })).toBe("“Careful.”");
    expect(() => fill("{who} waits.", {})).toThrow(/needs \{who\}/);
  });
});

describe("a game with little to tell", () => {
  const moves = [
    "Yes, I am ready.",
    "Who is anyone here?",
    "My name is Ash.",
    "1",
    "I go to the well.",
    "2",
    "What do I know about the war?",
    "“Hello?”",
    "I rest.",
    "3",
  ];

  it.each([
    ["nothing but a prompt", { title: "Bare", prompt: "You are the Game Master.", sections: [] }],
    ["a cast and nothing else", { title: "Cast", prompt: "Night in Vell.\n\nCharacters: Ada Lorn, a guard; Bo Trask, a thief.", sections: [] }],
  ])("still tells a story, without notes or repeats, for %s", (_case, brief: StoryBrief) => {
    const bare = readWorld(brief);
    const replies: string[] = [];
    for (const action of [...moves, ...moves, ...moves]) {
      const reply = narrateTurn({ world: bare, action, previousReplies: replies.slice(-8), previousActions: [] });
      expect(reply, action).not.toMatch(/[[\]{}]|undefined|You decide| {2}/);
      expect(choicesOf(reply).length, action).toBeGreaterThanOrEqual(3);
      replies.push(reply);
    }
    const paragraphs = replies.flatMap((reply) => reply.split("\n\n").filter((paragraph) => !/^\d\. |^\*\*/.test(paragraph)));
    expect(new Set(paragraphs).size).toBe(paragraphs.length);
    expect(replies.at(-1)).toContain("Ash");
  });
});

describe("reading a cast", () => {
  it("reads people from lists the prompt writes in several ways", () => {
    const cast = readWorld({
      title: "House",
      prompt:
        "Candles gutter in the hall.\n\nThe household: First Consort Aurelien Dastre (46, keeper of the ledgers); Second Consort Cassian Vey (39). The children: Isolde (19, dutiful), Maelis (17, reckless) and Wren (6, sees everything). Staff: Steward Mattias Crane and Mistress Perrine, keeper of keys. Outside: Matriarch Genevra Orlaith (58, the old rival) and her son Lucien (24).",
      sections: [],
    }).people;
    expect(cast.map((person) => [person.name, person.detail])).toEqual([
      ["First Consort Aurelien Dastre", "forty-six years old, keeper of the ledgers"],
      ["Second Consort Cassian Vey", "thirty-nine years old"],
      ["Isolde", "nineteen years old, dutiful"],
      ["Maelis", "seventeen years old, reckless"],
      ["Wren", "six years old, sees everything"],
      ["Steward Mattias Crane", ""],
      ["Mistress Perrine", "keeper of keys"],
      ["Matriarch Genevra Orlaith", "fifty-eight years old, the old rival"],
      ["Lucien", "Matriarch Genevra Orlaith's son, twenty-four years old"],
    ]);
  });
});
