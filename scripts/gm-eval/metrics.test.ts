import { describe, expect, it } from "vitest";
import type { Step } from "./session-script.ts";
import { choicesFor, HARBOUR_CAST, HARBOUR_STATS, harbourSession } from "./fixtures.ts";
import {
  agency,
  agencyViolations,
  brokenText,
  brokenTextProblems,
  choicesWellFormed,
  clockConsistency,
  distribution,
  failedTurns,
  replyWords,
  stateMatchesProse,
  timings,
} from "./form-metrics.ts";
import { answersAddressee, followsMovement, memoryRecall, repetition, stockPhrases } from "./metrics.ts";
import { share } from "./rates.ts";

const STATUS = "**Coin 40 · Favour 55 · Standing: Stranger**";
const STATE = { Coin: 40, Favour: 55, Standing: "Stranger", Friends: [] };

describe("repetition", () => {
  it("passes a story whose replies say new things", () => {
    const story = harbourSession([
      { reply: `The fog lifts from the harbour as the bells ring for the morning tide.\n\n${STATUS}${choicesFor("gull")}` },
      { reply: `A fishing boat limps home with a torn sail and a silent crew.\n\n${STATUS}${choicesFor("sail")}` },
      { reply: `Someone has chalked a lantern on the customs house door overnight.\n\n${STATUS}${choicesFor("chalk")}` },
    ]);
    const { sentences, runs } = repetition(story);
    expect(sentences).toMatchObject({ count: 0, of: 3 });
    expect(runs.count).toBe(0);
    expect(runs.of).toBeGreaterThan(0);
  });

  it("fails a story that pastes the same sentences, counting sentences and 8-word runs apart", () => {
    const stock = "Word comes, as it always does, at the least convenient moment.";
    const story = harbourSession([
      { reply: `The fog lifts from the harbour as the bells ring. ${stock}` },
      { reply: `A boat limps home with a torn sail. ${stock}` },
      { reply: `${stock} The quay is quiet for once, and nobody trusts it.` },
    ]);
    const { sentences, runs } = repetition(story);
    expect(sentences).toMatchObject({ count: 2, of: 6 });
    expect(sentences.failures.map((failure) => failure.turn)).toEqual([2, 3]);
    // "Word comes … moment" is 11 words: 4 runs of 8, repeated in replies 2 and 3.
    expect(runs.count).toBe(8);
    expect(share(sentences)).toBeGreaterThan(0.05);
  });

  it("leaves out the status line, the choices and sentences of fewer than four words", () => {
    const story = harbourSession([
      { reply: `Good. The harbour wakes under a red sky.\n\n${STATUS}${choicesFor("gull")}` },
      { reply: `Good. The customs men are counting crates again.\n\n${STATUS}${choicesFor("gull")}` },
    ]);
    expect(repetition(story).sentences).toMatchObject({ count: 0, of: 2 });
  });
});

describe("stockPhrases", () => {
  const formula = "Press your advantage and follow through on what you started.";

  it("finds nothing when each game's replies are its own", () => {
    const harbour = harbourSession([{ reply: "The harbour bells ring for the tide." }, { reply: "A gull steals a fish from the quay." }]);
    const court = harbourSession(
      [{ reply: "The ministers bow behind the pearl curtain." }, { reply: "Incense smoke curls over the lacquer table." }],
      "court",
    );
    const result = stockPhrases([harbour, court]);
    expect(result.overall).toMatchObject({ count: 0 });
    expect(result.top).toEqual([]);
  });

  it("fails phrases that recur across replies and across games, and names them", () => {
    const harbour = harbourSession([{ reply: `The tide turns. ${formula}` }, { reply: `A boat arrives. ${formula}` }]);
    const court = harbourSession([{ reply: `The ministers bow. ${formula}` }], "court");
    const result = stockPhrases([harbour, court]);
    expect(share(result.overall ?? { count: 0, of: 0 })).toBeGreaterThan(0.5);
    expect(result.top).toContainEqual({ phrase: "press your advantage and follow", replies: 3, games: 2 });
  });

  it("needs two games to tell a formula from a story's own words", () => {
    const harbour = harbourSession([{ reply: formula }, { reply: formula }, { reply: formula }]);
    expect(stockPhrases([harbour]).overall).toBeUndefined();
  });
});

describe("answersAddressee", () => {
  const ask = { kind: "ask", to: "Captain Oren Dask", text: "Captain Dask, where is the cargo?" } as const;
  const verdicts = (...replies: string[]) => answersAddressee(harbourSession(replies.map((reply) => ({ step: ask, reply })))).failures;

  it("passes replies where the character spoken to answers, however the speech is tagged", () => {
    const failures = verdicts(
      "Oren Dask scratches his beard. “Gone,” he says.",
      "“Gone,” says Oren Dask, not meeting your eyes.",
      "The Captain shrugs. “Gone.” Ilse Varga frowns at that.",
      "Years ago the Harbormaster's own brother, Captain Oren Dask, sank a customs cutter. “Ask me anything.”",
      "Captain Oren Dask turns away without a word.",
    );
    expect(failures).toEqual([]);
  });

  it("fails replies where someone else answers, or nobody named does", () => {
    const failures = verdicts(
      "Harbormaster Ilse Varga answers before the captain can. “Gone.”",
      "“It went out with the tide,” says the Harbormaster.",
      "The wind answers, and nobody else.",
    );
    expect(failures).toEqual([
      { turn: 1, detail: "Harbormaster Ilse Varga answered Captain Oren Dask" },
      { turn: 2, detail: "Harbormaster Ilse Varga answered Captain Oren Dask" },
      { turn: 3, detail: "nobody named answered Captain Oren Dask" },
    ]);
  });

  it("does not count the reply restating the question as the answer", () => {
    const step = { kind: "ask", to: "Harbormaster Ilse Varga", text: "I ask Ilse Varga about the raid." } as const;
    const story = harbourSession([{ step, reply: "You ask Ilse Varga about the raid. Oren Dask answers first: “There was no raid.”" }]);
    expect(answersAddressee(story)).toMatchObject({ count: 0, of: 1 });
  });

  it("checks only turns spoken to someone", () => {
    expect(answersAddressee(harbourSession([{ reply: "Madam Lin answers." }])).of).toBe(0);
  });
});

describe("followsMovement", () => {
  const move = { kind: "move", to: "the Lamp Tower", text: "I go to the Lamp Tower." } as const;

  it("passes a reply whose scene is where the player went", () => {
    const story = harbourSession([{ step: move, reply: "*Night — the Lamp Tower*\n\nThe stairs of the Lamp Tower wind up into the dark." }]);
    expect(followsMovement(story)).toMatchObject({ count: 1, of: 1 });
  });

  it("fails a reply whose scene heading stays elsewhere, or that only restates the move", () => {
    const story = harbourSession([
      { step: move, reply: "*Night — the Salt Quay*\n\nYou go to the Lamp Tower. The quay is as busy as ever." },
      { step: move, reply: "You go to the Lamp Tower. The crates are stacked high and the gulls are loud." },
    ]);
    expect(followsMovement(story).failures).toEqual([
      { turn: 1, detail: "the scene heading puts it at the Salt Quay" },
      { turn: 2, detail: "the reply does not reach the Lamp Tower (beyond restating the move)" },
    ]);
  });
});

describe("memoryRecall", () => {
  const recall: Step = { kind: "recall", text: "Where did I hide the ledger?", expect: ["third floor tile", "floor tile"] };

  it("passes a reply that brings the pinned fact back", () => {
    const story = harbourSession([{ step: recall, reply: "Under the third floor tile of your room, where you left it." }]);
    expect(memoryRecall(story)).toMatchObject({ count: 1, of: 1 });
  });

  it("fails a reply that does not, or only offers it as a choice", () => {
    const story = harbourSession([
      { step: recall, reply: "You have found the edge of what I know." },
      { step: recall, reply: "Nobody remembers.\n\n1. Lift the third floor tile.\n2. Ask the Captain." },
    ]);
    expect(memoryRecall(story)).toMatchObject({ count: 0, of: 2 });
  });
});

describe("stateMatchesProse", () => {
  it("passes replies whose status line shows the stored state (change notes and units aside)", () => {
    const story = harbourSession([
      { reply: `The tide turns.\n\n**Coin 40 coins · Favour 57 (+2) · Standing: Trusted**`, state: { ...STATE, Favour: 57, Standing: "Trusted" } },
      { reply: "A quiet turn with no status line.", state: STATE },
    ]);
    expect(stateMatchesProse(story)).toMatchObject({ count: 1, of: 1 });
  });

  it("fails a reply whose status line says other values than the State panel", () => {
    const story = harbourSession([{ reply: "The tide turns.\n\n*Coin 38 · Favour 57 (+2) · Standing: Trusted*", state: STATE }]);
    expect(stateMatchesProse(story).failures).toEqual([
      {
        turn: 1,
        detail:
          'Coin: the prose says 38, the State panel 40; Favour: the prose says 57, the State panel 55; Standing: the prose says "Trusted", the State panel "Stranger"',
      },
    ]);
  });

  it("reads a text stat written without its label by its value's first word", () => {
    const realm = [{ name: "Realm", kind: "text", start: "Qi Condensation, 2nd Layer (0%)" }] as const;
    const line = "*Day 3 of 90 · Qi Condensation 2nd Layer (14%) · Vitality 100/100 · Dao Heart 52*";
    const session = { ...harbourSession([{ reply: line, state: { Realm: "Qi Condensation, 2nd Layer (0%)" } }]), stats: [...realm] };
    expect(stateMatchesProse(session).failures[0]?.detail).toBe(
      'Realm: the prose says "Qi Condensation 2nd Layer (14%)", the State panel "Qi Condensation, 2nd Layer (0%)"',
    );
  });
});

describe("clockConsistency", () => {
  it("passes a clock that agrees with itself and moves forward", () => {
    const story = harbourSession([
      { reply: "*Day 2, morning — the Salt Quay*\n\nThe tide turns.\n\n*Day 2 of 90 · Coin 40 · Favour 55*" },
      { reply: "*Day 3, morning — the Lamp Tower*\n\nThe lamp is lit.\n\n*Day 3 of 90 · Coin 40 · Favour 55*" },
    ]);
    expect(clockConsistency(story)).toMatchObject({ count: 2, of: 2 });
  });

  it("fails a heading and a status line on different days, and a day that goes back", () => {
    const story = harbourSession([
      { reply: "*Day 2, morning — the Salt Quay*\n\nThe tide turns.\n\n*Day 4 of 90 · Coin 40 · Favour 55*" },
      { reply: "*Day 3, evening — the Salt Quay*\n\nThe tide turns again." },
    ]);
    expect(clockConsistency(story).failures).toEqual([
      { turn: 1, detail: "day 2 and day 4 in one reply" },
      { turn: 2, detail: "day 3 after day 4" },
    ]);
  });
});

describe("agency", () => {
  it("passes replies that leave the player's words and decisions to the player", () => {
    expect(
      agencyViolations("Oren Dask laughs. “You drive a hard bargain, and if you accept, we sail tonight,” he says.", "I offer ten coins."),
    ).toEqual([]);
    expect(agencyViolations("If you decide to stay, the captain will wait. Will you agree to his terms?", "I wait.")).toEqual([]);
    expect(agencyViolations("“I will pay double,” you say, and the captain grins.", 'I say, "I will pay double."')).toEqual([]);
    expect(agencyViolations("You accept the captain's offer.", "I accept the offer.")).toEqual([]);
  });

  it("fails replies that put words in the player's mouth, decide or feel for them", () => {
    expect(agencyViolations("“I will pay double,” you say.", "I haggle.")).toEqual(["speaks for the player: “I will pay double,”"]);
    expect(agencyViolations("You tell him, “Never again.”", "I stare at him.")).toEqual(["speaks for the player: “Never again.”"]);
    expect(agencyViolations("You decide to trust him. You feel a surge of anger.", "I listen.")).toEqual([
      'decides for the player: "You decide to trust him."',
      `declares the player's feelings: "You feel a surge of anger."`,
    ]);
    const story = harbourSession([{ reply: "The tide turns." }, { reply: "You agree to sail at dawn." }]);
    expect(agency(story)).toMatchObject({ count: 1, of: 2 });
  });
});

describe("choicesWellFormed", () => {
  it("passes replies with 3 to 6 distinct choices none of which was just offered", () => {
    const story = harbourSession(["gull", "sail", "chalk"].map((seed) => ({ reply: `The tide turns.${choicesFor(seed)}` })));
    expect(choicesWellFormed(story)).toMatchObject({ count: 3, of: 3 });
  });

  it("fails too few choices, a choice twice, and a choice re-offered from a recent reply", () => {
    const story = harbourSession([
      { reply: `The tide turns.${choicesFor("gull")}` },
      { reply: "The tide turns.\n\n1. Wait.\n2. Leave." },
      { reply: "The tide turns.\n\n1. Wait for dawn.\n2. Wait for dawn.\n3. Sing a sea song." },
      { reply: "The tide turns.\n\n1. Ask about the gull at the tavern.\n2. Swim.\n3. Sleep." },
    ]);
    expect(choicesWellFormed(story).failures).toEqual([
      { turn: 2, detail: "2 numbered choices" },
      { turn: 3, detail: 'the same choice twice: "wait for dawn"' },
      { turn: 4, detail: 'offered again from a recent reply: "Ask about the gull at the tavern."' },
    ]);
  });
});

describe("brokenText", () => {
  it("passes clean text", () => {
    const reply = `Madam Lin spreads her hands. “Your Majesty, the seal is gone.” She waits.${choicesFor("seal")}`;
    expect(brokenTextProblems(reply, "Where is the seal?", HARBOUR_CAST)).toEqual([]);
  });

  it("fails the issue's broken speech: stray marks and 'their' for a woman", () => {
    const reply = "Madam Lin Cuiwei spreads their hands. '\", Your Majesty?…'";
    expect(brokenTextProblems(reply, "Where is the seal?", HARBOUR_CAST)).toEqual([
      'an unclosed " quote',
      "empty or stray speech marks",
      `"their" for Madam Lin Cuiwei (she): "Madam Lin Cuiwei spreads their"`,
    ]);
  });

  it("fails unbalanced and empty quotes, doubled clauses and template pronouns in choices", () => {
    expect(brokenTextProblems("“The seal is gone, she says.", "", HARBOUR_CAST)).toEqual(["unbalanced quotes (1 “ and 0 ”)"]);
    expect(brokenTextProblems("He opens his mouth. “” Then nothing.", "", HARBOUR_CAST)).toEqual(["empty or stray speech marks"]);
    expect(brokenTextProblems("The lanterns burn low over the quay, the lanterns burn low over the quay.", "", HARBOUR_CAST)).toEqual([
      'a clause written twice: "the lanterns burn low over the quay"',
    ]);
    expect(brokenTextProblems("*Night — the Lamp Tower of Varga*\n\nThe Lamp Tower of Varga: where the keeper lives.", "", HARBOUR_CAST)).toEqual(
      [],
    );
    expect(brokenTextProblems("“Oren Dask knows more than they let on.”", "", HARBOUR_CAST)).toEqual([
      `"their" for Captain Oren Dask (he): "Oren Dask knows more than they"`,
    ]);
    expect(brokenTextProblems("The tide turns.\n\n1. Ask Oren Dask what they know.\n2. Wait.\n3. Leave.", "", HARBOUR_CAST)).toEqual([
      `"their" for Captain Oren Dask (he): "Oren Dask what they"`,
    ]);
  });

  it("does not blame the reply for the player's own words", () => {
    expect(brokenTextProblems("You thank Ilse Varga for their help.", "I thank Ilse Varga for their help.", HARBOUR_CAST)).toEqual([]);
    expect(brokenText(harbourSession([{ reply: "Fine." }, { reply: "“Broken." }]))).toMatchObject({ count: 1, of: 2 });
  });
});

describe("length, time and failed turns", () => {
  const story = harbourSession([
    { reply: "One two three four.", firstTokenMs: 100, replyMs: 900 },
    { reply: "One two.", firstTokenMs: 300, replyMs: 1500 },
    { reply: "", error: "HTTP 503" },
  ]);

  it("measures words and times of the replies that came", () => {
    expect(replyWords(story)).toEqual([4, 2]);
    expect(timings(story)).toEqual({ firstTokenMs: [100, 300], replyMs: [900, 1500] });
    expect(distribution([5, 1, 3, 2, 4, 10, 6, 7, 8, 9])).toEqual({ median: 5, p90: 9, count: 10 });
    expect(distribution([])).toEqual({ median: undefined, p90: undefined, count: 0 });
  });

  it("counts the turns and story controls that failed", () => {
    expect(failedTurns(story)).toEqual({ count: 2, of: 3, failures: [{ turn: 3, detail: "HTTP 503" }] });
    const [first] = story.turns;
    if (!first) throw new Error("The story has turns.");
    const controlled = {
      ...story,
      turns: [{ ...first, controls: [{ kind: "continue" as const, error: "HTTP 409: story_changed" }, { kind: "retry" as const }] }],
    };
    expect(failedTurns(controlled)).toEqual({ count: 2, of: 3, failures: [{ turn: 1, detail: "continue: HTTP 409: story_changed" }] });
  });
});

describe("the harbour game", () => {
  it("tracks the stats its tests use", () => {
    expect(HARBOUR_STATS.map((stat) => stat.name)).toEqual(Object.keys(STATE));
  });
});
