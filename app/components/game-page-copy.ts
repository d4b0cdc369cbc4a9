/** The game page's fixed copy: difficulty notes, features, how-to-play steps, section icons and its questions and answers. */
import { Lightbulb, MessageSquare, ScrollText, Swords, TrendingUp, Users } from "lucide-react";
import type { Difficulty } from "#app/lib/constants.ts";

/** docs/spec.md §2's difficulty note beside the game's features. */
export const DIFFICULTY_NOTES: Record<Difficulty, string> = {
  Beginner: "Perfect for newcomers to interactive fiction",
  Intermediate: "Balanced challenge for experienced players",
  Advanced: "Complex scenarios for veteran players",
};

export const GAME_FEATURES = ["AI-Powered Storytelling", "Dynamic Narrative", "Choice-Driven Story", "Immersive Experience"] as const;

export const HOW_TO_PLAY = [
  { title: "Click “Start Playing Now”", text: "Sign in (new players get free credits) and your story opens on the play screen." },
  { title: "Read the AI's narrative", text: "The Game Master describes the setting, who is in the room and what is at stake." },
  {
    title: "Type your character's actions and decisions",
    text: "Pick one of the numbered choices or write anything your character might do or say.",
  },
  {
    title: "Watch the AI respond and advance the story",
    text: "Characters react, consequences unfold and new choices appear. Every turn is remembered.",
  },
] as const;

export const MECHANIC_ICONS = { "Combat & Challenges": Swords, "Dialogue System": MessageSquare, "Character Progression": TrendingUp } as const;
export const STRATEGY_ICONS = { "Beginner Tips": Lightbulb, "Advanced Strategies": ScrollText, "Community Insights": Users } as const;

/** The questions every game page answers, about this game. */
export function gamePageFaq(title: string, difficulty: Difficulty) {
  return [
    {
      question: "How long does a game session take?",
      answer:
        "A typical session lasts 15–30 minutes, but there is no time limit — many players stay for several hours. Your story is saved as you play, so you can stop whenever you like.",
    },
    {
      question: `What makes ${title} unique?`,
      answer:
        "Every reply is written for your story by an AI Game Master, so no two playthroughs are alike. The world reacts to what you actually write, not only to preset options, and characters remember how you treated them.",
    },
    {
      question: "Is this game beginner friendly?",
      answer: `Yes. Each reply ends with numbered choices you can pick by typing a number, and you can always ask the Game Master what your options are. This game is rated ${difficulty}: ${DIFFICULTY_NOTES[difficulty].toLowerCase()}.`,
    },
    {
      question: "Can I save my progress?",
      answer:
        "Yes. When you are signed in, every exchange with the Game Master is saved as it happens, so you can close the tab and continue later. Save Chat stores the conversation on demand, and Start Over begins a fresh story.",
    },
  ];
}
