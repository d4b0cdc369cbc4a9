/**
 * Prints a story told by the offline storyteller as Markdown: a new player's first session in a
 * seeded game, played as the site plays it (each turn's context built within the default budget).
 * The player begins, asks who people are, gives a name, picks choices by number and by their
 * text, travels, talks, looks around and rests. After each reply, the State panel's values.
 *
 *   npx node scripts/offline-transcript.ts [game-slug] [turns] [name] > story.md
 *
 * Defaults: empress-simulator, 30 turns, the name "Lin Mei".
 */
import { loadSeedGames } from "#app/db/seed/seed.server.ts";
import { briefOf, playOffline, worldInContext, type PlayedTurn } from "#app/domain/game-master/offline-playthrough.server.ts";
import { midSentence, shortName, type World } from "#app/domain/game-master/offline-world.server.ts";
import { PLAY_TEXTS } from "#app/lib/play-texts.ts";
import { splitStoryChoices } from "#app/lib/story-choices.ts";

const [slug = "empress-simulator", turnsArgument = "30", name = "Lin Mei"] = process.argv.slice(2);
const turns = Number(turnsArgument);
const seed = loadSeedGames().find((game) => game.game.slug === slug);
if (!seed || !Number.isInteger(turns) || turns < 1) {
  const slugs = loadSeedGames().map((game) => game.game.slug);
  console.error(`Usage: npx node scripts/offline-transcript.ts [${slugs.join("|")}] [turns] [name]`);
  process.exit(1);
}

const brief = briefOf({ title: seed.game.title, prompt: seed.game.prompt }, seed.content);
const world = worldInContext(brief);

/** A session's moves, in the order a curious new player might make them; `nth` picks from the world's lists. */
function plan(world: World): ((story: PlayedTurn[]) => string)[] {
  const person = (index: number) => shortName(world.people[index % Math.max(1, world.people.length)]?.name ?? "the stranger");
  const place = (index: number) => midSentence(world.places[index % Math.max(1, world.places.length)]?.name ?? "the gate");
  const choice = (number: number) => (story: PlayedTurn[]) => splitStoryChoices(story.at(-1)?.reply ?? "").choices[number - 1] ?? `${number}`;
  const topic = (index: number) => {
    const things = [...world.challenges, ...world.groups, ...world.facts];
    const name = things[index % Math.max(1, things.length)]?.name ?? "the rumours";
    // "Border alarms" is asked about as "the border alarms"; a proper name keeps its capitals.
    const proper =
      /^the\b/i.test(name) ||
      name
        .split(/\s+/)
        .slice(1)
        .some((word) => /^[A-Z]/.test(word));
    return proper ? midSentence(name) : `the ${name.toLowerCase()}`;
  };
  return [
    () => PLAY_TEXTS.beginChoice,
    () => `Who is ${person(1)}?`,
    () => `My name is ${name}.`,
    () => "1",
    () => `Where is ${place(2)}?`,
    () => `I go to ${place(2)}.`,
    () => "2",
    () => `What do I know about ${topic(0)}?`,
    choice(3),
    () => "“We will not be rushed,” I say, and let the silence stretch.",
    () => `Can I trust ${person(3)}?`,
    () => "3",
    () => "I look around carefully.",
    () => `I invite ${person(2)} to walk with me.`,
    () => "What should I do?",
    choice(1),
    () => "I rest until morning.",
    () => "2",
    () => `Tell me about ${topic(1)}.`,
    () => `I go to ${place(4)}.`,
    () => "1.",
    () => `I thank ${person(5)} for their help.`,
    () => `What does ${person(0)} want?`,
    choice(2),
    () => "I write a short letter and seal it myself.",
    () => "4",
    () => `Where is ${place(1)}?`,
    () => `I go to ${place(1)}.`,
    () => "I study the faces around me.",
    choice(1),
  ];
}

const moves = plan(world);
const stats = seed.game.trackedStats ?? [];
const story = await playOffline(brief, turns, (sofar) => (moves[sofar.length % moves.length] ?? (() => "1"))(sofar), { stats });

/** The State panel after a turn, on one line: "State: Grace 78 · Allies at Court: Madam Lin Cuiwei". */
function stateLine(state: PlayedTurn["state"]) {
  if (!state) return [];
  const shown = stats.map((stat) => {
    const value = state[stat.name];
    return stat.kind === "list" ? `${stat.name}: ${(value as string[]).join(", ") || "none"}` : `${stat.name} ${String(value)}`;
  });
  return [`> State: ${shown.join(" · ")}`, ""];
}

const lines = [
  `# ${seed.game.title}: a story told offline`,
  "",
  `*${turns} turns with the offline storyteller, as a new player might play them.*`,
  "",
];
for (const [index, turn] of story.entries()) {
  lines.push("---", "", `**Turn ${index + 1}. You:** ${turn.message.trim()}`, "", turn.reply.trim(), "", ...stateLine(turn.state));
}
console.log(lines.join("\n"));
