import {
  BEGIN,
  COMMON_MOVES,
  COMMON_QUESTIONS,
  introduce,
  pin,
  recall,
  type IntroducedPerson,
  type PinnedFact,
  type SessionScript,
} from "../session-script.ts";

const locket: PinnedFact = {
  fact: "I keep my grandmother's silver locket sewn into the lining of my audition bag.",
  question: "Where do I keep my grandmother's silver locket?",
  expect: ["lining", "audition bag"],
};
const legalName: PinnedFact = {
  fact: "My stage name is Ava Lark, but my legal name is Agatha Larkin.",
  question: "What is my legal name?",
  expect: ["Agatha Larkin"],
};
const coach: IntroducedPerson = {
  introduction: "I hire a vocal coach named Desmond Oyelaran for two sessions a week.",
  question: "What is the name of the vocal coach I hired?",
  expect: ["Desmond", "Oyelaran"],
};

/** Celebrity Life: Halcyon's studios, agents and press in content/games/celebrity-life/. */
export const celebrityLife: SessionScript = {
  game: "celebrity-life",
  version: 1,
  cast: [
    { name: "June Park", aliases: ["June"], address: "June" },
    { name: "Margo Vance", aliases: ["Margo"], pronoun: "she", address: "Margo" },
    { name: "Theo Castellan", aliases: ["Theo"], pronoun: "he", address: "Theo" },
    { name: "Harlan Brandt", aliases: ["Mr. Brandt"], pronoun: "he", address: "Mr. Brandt" },
    { name: "Nova Reyes", aliases: ["Ms. Reyes"], address: "Ms. Reyes" },
    { name: "Sienna Voss", aliases: ["Sienna"], pronoun: "she", address: "Sienna" },
    { name: "Ines Calloway", aliases: ["Ms. Calloway"], pronoun: "she", address: "Ms. Calloway" },
    { name: "Kai Marlowe", aliases: ["Kai"], address: "Kai" },
    { name: "Cass Whitlock", aliases: ["Cass"], pronoun: "she", address: "Cass" },
    { name: "Rafe Donnelly", aliases: ["Rafe"], pronoun: "he", address: "Rafe" },
  ],
  places: [
    { name: "Ninth Street", aliases: [] },
    { name: "Marquee Mile", aliases: [] },
    { name: "Backlot Row", aliases: [] },
    { name: "the Glass Pier", aliases: ["Glass Pier"] },
    { name: "Vesper Canyon", aliases: [] },
    { name: "the Blue Kettle", aliases: ["Blue Kettle"] },
  ],
  opening: [
    BEGIN,
    { kind: "say", text: "My name is Ava Lark. I'm an actor, she/her." },
    { kind: "ask", to: "June Park", text: "June, did you post that open-mic clip?" },
    { kind: "ask", to: "Margo Vance", text: "Margo, what would you do for my career that a big agency wouldn't?" },
    { kind: "choose", by: "number", choice: 1 },
    pin(locket),
    recall(locket),
    introduce(coach),
    { kind: "move", to: "Backlot Row", text: "I go to Backlot Row for the callback." },
    { kind: "ask", to: "Ines Calloway", text: "Ms. Calloway, what are you looking for in Tamsin?" },
    { kind: "choose", by: "text", choice: 2 },
    { kind: "risky", to: "Rafe Donnelly", text: "I tell Rafe Donnelly on the record that Sienna Voss faked her last role." },
    pin(legalName),
    recall(legalName),
    { kind: "move", to: "the Glass Pier", text: "I head to the Glass Pier tonight." },
    { kind: "ask", to: "Kai Marlowe", text: "Kai, are you as much trouble as everyone says?" },
    recall(coach),
    { kind: "choose", by: "number", choice: 3 },
  ],
  questions: COMMON_QUESTIONS,
  moves: COMMON_MOVES,
  actions: [
    "I rehearse the Tamsin sides until I know them cold.",
    "I take an evening acting class.",
    "I rest until morning.",
    "I check my bank balance and pay the rent.",
    "I post a short thank-you video for the fans.",
    "I read the trades over coffee.",
    "I go for a run along the harbor at dawn.",
    "I call my mother back home.",
    "I answer the fan mail that has piled up.",
    "I practise a monologue in front of the mirror.",
  ],
  risks: [
    { text: "I crash Nova Reyes's private party without an invitation.", to: "Nova Reyes" },
    { text: "I sign Theo Castellan's contract without reading it.", to: "Theo Castellan" },
    { text: "I walk out of a paid shoot halfway through because the script insults my character." },
  ],
  pinned: [locket, legalName],
  introduced: coach,
};
