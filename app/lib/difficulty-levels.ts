import { parseDifficulty, type Difficulty } from "./constants.ts";

/** What the category page (/games/category/{level}) says about each difficulty level. */
export interface DifficultyLevel {
  difficulty: Difficulty;
  slug: string;
  description: string;
  /** docs/spec.md §2's feature list per level. */
  features: readonly string[];
  tips: readonly { title: string; text: string }[];
  metaTitle: string;
  metaDescription: string;
}

export const DIFFICULTY_LEVELS: Record<Difficulty, DifficultyLevel> = {
  Beginner: {
    difficulty: "Beginner",
    slug: "beginner",
    description:
      "New to interactive fiction? These adventures ease you in. The Game Master sets the scene clearly, suggests what you might do next and forgives the odd misstep, so you can learn how AI role-play works while enjoying a complete story.",
    features: ["Simplified character creation", "Clear narrative guidance", "Forgiving mechanics", "Built-in tutorials and hints"],
    tips: [
      {
        title: "Start from the numbered choices",
        text: "Every reply ends with a few numbered options. Typing a number is the quickest way to learn the rhythm of a story; once it feels natural, start adding a sentence of your own to each choice.",
      },
      {
        title: "Say who your character is in your first message",
        text: "One line about your character's temperament or goal — shy, ambitious, kind to servants — gives the Game Master something to build on and makes every later scene feel more like yours.",
      },
      {
        title: "Ask questions inside the story",
        text: "If you are unsure what is going on, have your character ask someone: a friend, a teacher, a servant. The answer arrives as part of the story instead of breaking the mood.",
      },
      {
        title: "Keep each turn to one clear action",
        text: "“I walk to the library and look for the club notice board” works better than a paragraph of plans. Short, concrete actions get focused, vivid replies.",
      },
    ],
    metaTitle: "Beginner Adventures — Easy AI Story Games to Start With",
    metaDescription:
      "Beginner-friendly interactive stories with clear guidance, forgiving mechanics and built-in hints. The easiest way to start playing with an AI Game Master.",
  },
  Intermediate: {
    difficulty: "Intermediate",
    slug: "intermediate",
    description:
      "For players who know the basics and want more to juggle: characters who remember how you treated them, storylines that run in parallel, and decisions whose cost only shows a few scenes later.",
    features: ["Complex character development", "Multi-layered storylines", "Strategic decisions", "Relationship systems"],
    tips: [
      {
        title: "Track the people, not just the plot",
        text: "Relationships are the real resources here. Note who owes you a favour, who you embarrassed and who is watching; the Game Master remembers, and so should you.",
      },
      {
        title: "Think two scenes ahead",
        text: "Before you act, ask what the other side will do in return. A generous gift today may create an expectation tomorrow; a public win may make a private enemy.",
      },
      {
        title: "Use the stat lines as a compass",
        text: "When a status line appears, read which numbers moved and why. A slow drift in one stat usually tells you which storyline you have been neglecting.",
      },
      {
        title: "Let some threads wait",
        text: "You cannot solve every problem at once. Choose the one or two that matter most this turn and tell the Game Master you are letting the rest simmer.",
      },
    ],
    metaTitle: "Intermediate Adventures — Deeper AI Role-Play Stories",
    metaDescription:
      "Intermediate interactive stories with complex characters, multi-layered plots, strategic decisions and relationship systems, narrated by an AI Game Master.",
  },
  Advanced: {
    difficulty: "Advanced",
    slug: "advanced",
    description:
      "Demanding stories for veteran players: a court full of factions, stakes that can end your reign, and a Game Master that punishes carelessness as readily as it rewards cunning. Every path branches, and few can be walked back.",
    features: ["Complex political systems", "High-stakes consequences", "Advanced AI interaction", "Multi-path branching"],
    tips: [
      {
        title: "Map the factions before you move",
        text: "Spend your first turns learning who wants what: ministers, clans, generals, servants. An advanced story rewards the player who knows which two rivals can be set against each other.",
      },
      {
        title: "Write layered actions",
        text: "Combine a public move with a private one — praise a minister in open court while sending a trusted aide to check his accounts. The Game Master plays both threads.",
      },
      {
        title: "Protect your weakest stat",
        text: "Defeat rarely comes from one bad choice; it comes from a number quietly falling below its threshold. Shore up the stat that is closest to danger before chasing a bold gain.",
      },
      {
        title: "Keep promises, or break them on purpose",
        text: "Characters remember what you promised. A broken promise can be a weapon, but only if you chose to break it and prepared for the fallout.",
      },
    ],
    metaTitle: "Advanced Adventures — Complex AI Strategy Role-Play",
    metaDescription:
      "Advanced interactive stories with complex political systems, high-stakes consequences and multi-path branching for veteran players of AI role-play.",
  },
};

/** The level of a category URL parameter (case-insensitive), or undefined for anything else. */
export function findDifficultyLevel(parameter: string | undefined): DifficultyLevel | undefined {
  const difficulty = parseDifficulty(parameter);
  return difficulty ? DIFFICULTY_LEVELS[difficulty] : undefined;
}
