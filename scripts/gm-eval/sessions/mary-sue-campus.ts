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

const swimming: PinnedFact = {
  fact: "I secretly cannot swim, not even a little.",
  question: "What is the one thing I secretly cannot do?",
  expect: ["swim"],
};
const locker: PinnedFact = {
  fact: "My locker combination is 4-7-19.",
  question: "What is my locker combination?",
  expect: ["4-7-19"],
};
const hedgehog: IntroducedPerson = {
  introduction: "I adopt a stray hedgehog and name it Professor Bristle.",
  question: "What did I name the hedgehog I adopted?",
  expect: ["Bristle"],
};

/** Mary Sue Campus: Everbright Academy's students and teachers in content/games/mary-sue-campus/. */
export const marySueCampus: SessionScript = {
  game: "mary-sue-campus",
  version: 1,
  cast: [
    { name: "Penny Larkspur", aliases: ["Penny"], pronoun: "she", address: "Penny" },
    { name: "Valentina Ashcombe", aliases: ["Val Ashcombe", "Valentina", "Val", "President Ashcombe"], pronoun: "she", address: "Val" },
    { name: "Kit Navarro", aliases: ["Kit"], pronoun: "he", address: "Kit" },
    { name: "Rowan Vale", aliases: ["Rowan"], pronoun: "he", address: "Rowan" },
    { name: "Ollie Finch", aliases: ["Ollie"], address: "Ollie" },
    { name: "Mr. Quill", aliases: ["Mr Quill"], pronoun: "he" },
    {
      name: "Headmistress Octavia Fairweather",
      aliases: ["Headmistress Fairweather", "Octavia Fairweather", "the Headmistress"],
      pronoun: "she",
      address: "Headmistress Fairweather",
    },
  ],
  places: [
    { name: "Wisteria Hall", aliases: [] },
    { name: "the Old Clocktower", aliases: ["Old Clocktower", "the clocktower"] },
    { name: "the Great Library", aliases: ["Great Library"] },
    { name: "the Main Hall", aliases: ["Main Hall"] },
    { name: "the Rose Courtyard", aliases: ["Rose Courtyard"] },
    { name: "the Commons café", aliases: ["Commons café", "the Commons"] },
    { name: "the Wishing Ginkgo", aliases: ["Wishing Ginkgo"] },
    { name: "Music Room 3", aliases: [] },
  ],
  opening: [
    BEGIN,
    { kind: "say", text: "My name is Stella Quinn, she/her." },
    { kind: "ask", to: "Penny Larkspur", text: "Penny, why do you keep calling me the main character?" },
    { kind: "ask", to: "Valentina Ashcombe", text: "Val, why have you decided I'm a problem?" },
    { kind: "choose", by: "number", choice: 1 },
    pin(swimming),
    recall(swimming),
    introduce(hedgehog),
    { kind: "move", to: "the Great Library", text: "I go to the Great Library to study." },
    { kind: "ask", to: "Mr. Quill", text: "Mr. Quill, what did you think of my essay?" },
    { kind: "choose", by: "text", choice: 2 },
    { kind: "risky", text: "I climb the Old Clocktower at midnight to break into the locked top room." },
    pin(locker),
    recall(locker),
    { kind: "move", to: "the Rose Courtyard", text: "I head to the Rose Courtyard for lunch." },
    { kind: "ask", to: "Kit Navarro", text: "Kit, do you want me to tutor you before midterms?" },
    recall(hedgehog),
    { kind: "choose", by: "number", choice: 3 },
  ],
  questions: COMMON_QUESTIONS,
  moves: COMMON_MOVES,
  actions: [
    "I study for midterms until curfew.",
    "I join the Baking Club's sourdough session.",
    "I rest until morning.",
    "I bake a batch of lemon bars for my dorm floor.",
    "I practise my lines for the Drama Club audition.",
    "I write in my diary about the day.",
    "I stargaze from my dormitory window.",
    "I queue at dawn for the golden croissant.",
    "I help a lost first-year find the right classroom.",
    "I read The Everbright Whisper over breakfast.",
  ],
  risks: [
    { text: "I challenge Valentina Ashcombe to a public debate in front of the whole school.", to: "Valentina Ashcombe" },
    { text: "I sneak out after curfew through the back stairwell door." },
    { text: "I tell Mr. Quill that his favourite poem is overrated.", to: "Mr. Quill" },
  ],
  pinned: [swimming, locker],
  introduced: hedgehog,
};
