import { beforeAll, describe, expect, it } from "vitest";
import { loadSeedGames } from "../../../db/seed/seed.server.ts";
import { applyStateChanges } from "../../../lib/tracked-stats.ts";
import { splitStoryChoices } from "../../../lib/story-choices.ts";
import { briefOf, playScripted, tellOffline, type Move, type PlayedTurn } from "./playthrough.server.ts";
import type { World } from "./world.server.ts";
import { CONTINUE_INSTRUCTION, type StoryBrief } from "../story-brief.server.ts";

/**
 * The offline storyteller, played for 200 turns in every seeded game by a scripted player who
 * types numbers, picks choices by their text, asks questions, gives a name, travels, talks and
 * wanders — each turn built as the site builds it (the default context budget, so after a dozen
 * turns the model sees the opening and the newest turns only). Every reply is checked for the
 * properties issue 17 asks of it.
 */
const TURNS = 200;

/** Who the player is in each seeded game: what the opening says, how replies address them before they give a name, and the name they give. */
const PLAYERS: Record<string, { role: RegExp; address: string; introduction: string; name: string }> = {
  "empress-simulator": { role: /Empress Dowager/, address: "Your Majesty", introduction: "My name is Lin Mei.", name: "Lin Mei" },
  "cultivation-simulator": {
    role: /outer disciple/,
    address: "disciple",
    introduction: "I am Chen Yu, a disciple nobody remembers. I bow.",
    name: "Chen Yu",
  },
  "celebrity-life": { role: /gifted unknown/, address: "newcomer", introduction: "Call me Aria.", name: "Aria" },
  "mary-sue-campus": {
    role: /new transfer student/,
    address: "transfer student",
    introduction: "My name's Mira Sol, nice to meet you!",
    name: "Mira Sol",
  },
  "matriarch-harem-simulator": { role: /Matriarch/, address: "Matriarch", introduction: "I am Seraphine.", name: "Seraphine" },
};

/** Writer's notes, placeholders, meta text and Markdown debris: none may reach a player. */
const NOT_IN_A_STORY = [
  /[[\]{}<>]/,
  /\bTODO\b|\bTBD\b|\bFIXME\b|\bXXX\b/,
  /\(\s*Note|\bNote:/i,
  /\bAs an AI\b|\blanguage model\b|\bGame Master\b|\bnarrator\b|\bplayers?\b|\bNPCs?\b|\bthe game\b|\bstats?\b|\bprompt\b/i,
  /\bundefined\b|\bnull\b|\bNaN\b|\[object/,
  /\bYou decide to\b|\bThe question hangs\b/,
  /__|^#|\*\*\*|\(\s*\)|“\s*”/m,
  / {2}| [,.;:!?](?!\.\.)|,,|\.\.(?!\.)/,
];

function proseOf(reply: string) {
  return splitStoryChoices(reply).body;
}

/** The paragraphs that must not come back within 50 turns: all but the status line and the closing prompt above the choices. */
function storyParagraphs(reply: string) {
  return proseOf(reply)
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph && !/^\*{1,2}[^*]+·[^*]+\*{1,2}$/.test(paragraph) && !/^\*\*[^*]+\*\*(?: [^*]+:)?$/.test(paragraph));
}

function lowerFirst(text: string) {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function words(text: string) {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'’ -]+/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
}

/** The game's own statements (sentences and list items), as the storyteller may quote them: without Markdown, the player as "you". */
function statementsOf(brief: StoryBrief) {
  return [brief.prompt, ...brief.sections.map((section) => section.content)]
    .join("\n")
    .replace(/\bthe player's\b/gi, "your")
    .replace(/\bthe player\b/gi, "you")
    .replace(/^#+\s*(.+)\n+/gm, "$1: ")
    .replace(/[*_#()]/g, "")
    .split(/(?<!\b(?:Mr|Mrs|Ms|Dr|St))[.;!?\n]+/)
    .map((statement) => ` ${words(statement).join(" ")} `);
}

/**
 * Whether a reply answers a question about `subject` from the world: it repeats four words in a
 * row (the subject's own name aside) of something the game's content says about the subject
 * (naming it in full, or a person by their surname: "Headmistress Fairweather").
 */
function answersFromTheWorld(reply: string, { subject, person }: { subject: string; person: boolean }, statements: string[]) {
  const name = words(subject.replace(/^the /i, ""));
  const surname = name.at(-1) ?? "";
  const about = statements.filter((statement) => statement.includes(` ${name.join(" ")} `) || (person && statement.includes(` ${surname} `)));
  const unnamed = (tokens: string[]) => tokens.filter((token) => !name.includes(token.replace(/['’]s$/, "")));
  const said = unnamed(words(reply));
  const sources = about.map((statement) => ` ${unnamed(statement.trim().split(" ")).join(" ")} `);
  for (let start = 0; start + 4 <= said.length; start += 1) {
    if (sources.some((source) => source.includes(` ${said.slice(start, start + 4).join(" ")} `))) return true;
  }
  return false;
}

const games = loadSeedGames();

describe.each(games.map((seed) => [seed.game.slug, seed] as const))("the offline storyteller in %s, over 200 scripted turns", (slug, seed) => {
  const player = PLAYERS[slug];
  if (!player) throw new Error(`No scripted player for the seeded game ${slug}: add one to PLAYERS.`);
  const brief = briefOf({ title: seed.game.title, prompt: seed.game.prompt }, seed.content);
  let world: World;
  let story: PlayedTurn[];
  let moves: Move[];
  const statements = statementsOf(brief);

  beforeAll(async () => {
    ({ world, story, moves } = await playScripted(
      brief,
      TURNS,
      { seed: 17, introduction: player.introduction, name: player.name },
      { stats: seed.game.trackedStats },
    ));
  });

  it("keeps the game's tracked stats every turn, moving within their kind and range, and out of the prose", () => {
    const stats = seed.game.trackedStats ?? [];
    expect(stats.length).toBeGreaterThan(0);
    const moved = new Set<string>();
    for (const [index, turn] of story.entries()) {
      expect(turn.reply, `turn ${index}`).not.toMatch(/<\/?state>|tracked_state/);
      expect(turn.state && applyStateChanges(stats, turn.state, undefined), `turn ${index}`).toEqual(turn.state);
      const before = story[index - 1]?.state;
      for (const stat of stats) if (before && JSON.stringify(before[stat.name]) !== JSON.stringify(turn.state?.[stat.name])) moved.add(stat.name);
    }
    // A story that goes somewhere moves its numbers.
    expect(stats.filter((stat) => stat.kind === "number" && moved.has(stat.name)).length).toBeGreaterThan(0);
  });

  it("plays every move the script asks for, within the reply cap", () => {
    expect(story).toHaveLength(TURNS);
    const kinds = new Set(moves.map((move) => move.kind));
    for (const kind of ["begin", "name", "number", "choice-text", "stray-number", "question", "travel", "talk", "investigate", "speech", "rest"])
      expect(kinds, kind).toContain(kind);
    for (const [index, turn] of story.entries()) {
      expect(turn.truncated, `turn ${index} was cut at the output cap`).toBe(false);
      expect(splitStoryChoices(turn.reply).choices.length, `turn ${index} offers 3 to 6 choices`).toBeGreaterThanOrEqual(3);
      expect(splitStoryChoices(turn.reply).choices.length).toBeLessThanOrEqual(6);
    }
  });

  it("answers the player's questions in the scene, from the world's facts", () => {
    let answered = 0;
    for (const [index, move] of moves.entries()) {
      const reply = proseOf(story[index]?.reply ?? "");
      if (move.kind === "question") {
        const context = `turn ${index}: ${story[index]?.message}\n\n${reply}`;
        expect(reply.toLowerCase(), context).toContain(move.subject.replace(/^the /i, "").toLowerCase());
        expect(answersFromTheWorld(reply, move, statements), context).toBe(true);
        answered += 1;
      }
      if (move.kind === "unknown-question" || move.kind === "advice") {
        // No answer in the world: still someone in the scene answers, in words of their own.
        expect(reply, `turn ${index}`).toMatch(/“[^”]{10,}”/);
      }
    }
    expect(answered).toBeGreaterThanOrEqual(20);
  });

  it("establishes who the player is, addresses them by their role, and by their name once given, to the end", () => {
    const opening = story[0]?.reply ?? "";
    expect(opening).toMatch(player.role);
    const named = moves.findIndex((move) => move.kind === "name");
    expect(named).toBe(3);
    for (const [index, turn] of story.entries()) {
      const expected = index < named ? player.address : player.name;
      expect(turn.reply, `turn ${index} addresses the player as ${expected}`).toContain(expected);
    }
    // Long after the message that gave it has left the model's context, the name is still known.
    expect(story.slice(-50).every((turn) => turn.reply.includes(player.name))).toBe(true);
    // Asked, the story says who the player is: the opening's role, and the name once they gave it.
    const asked = moves.flatMap((move, index) => (move.kind === "self" ? [index] : []));
    expect(asked).toEqual([2, 150]);
    expect(proseOf(story[2]?.reply ?? "")).toMatch(player.role);
    expect(proseOf(story[2]?.reply ?? "")).not.toContain("Your name is");
    expect(proseOf(story[150]?.reply ?? "")).toMatch(player.role);
    expect(proseOf(story[150]?.reply ?? "")).toContain(`Your name is ${player.name}.`);
  });

  it("treats a typed number or a choice's text as that choice", () => {
    let honoured = 0;
    for (const [index, move] of moves.entries()) {
      const reply = story[index]?.reply ?? "";
      expect(reply, `turn ${index}`).not.toMatch(/\bYou (?:decide to|say:?) “?\d/);
      if (move.kind === "number" || move.kind === "choice-text") {
        expect(reply, `turn ${index}: ${story[index]?.message}`).toContain(`You ${lowerFirst(move.choice)}`);
        honoured += 1;
      }
      if (move.kind === "stray-number") expect(reply, `turn ${index}`).toContain("You hesitate");
    }
    expect(honoured).toBeGreaterThanOrEqual(40);
  });

  it("never writes a note, a placeholder, meta text or stray Markdown", () => {
    for (const [index, turn] of story.entries()) {
      for (const pattern of NOT_IN_A_STORY) expect(turn.reply, `turn ${index} matches ${pattern}`).not.toMatch(pattern);
      for (const paragraph of turn.reply.split(/\n\s*\n/)) {
        expect((paragraph.match(/\*\*/g) ?? []).length % 2, `turn ${index}: unbalanced ** in ${paragraph}`).toBe(0);
        expect((paragraph.replaceAll("**", "").match(/\*/g) ?? []).length % 2, `turn ${index}: unbalanced * in ${paragraph}`).toBe(0);
        expect((paragraph.match(/“/g) ?? []).length, `turn ${index}: unbalanced quotes in ${paragraph}`).toBe(
          (paragraph.match(/”/g) ?? []).length,
        );
      }
    }
  });

  it("does not repeat a paragraph within 50 turns, nor a list of choices", () => {
    const lastSeen = new Map<string, number>();
    let checked = 0;
    for (const [index, turn] of story.entries()) {
      for (const paragraph of storyParagraphs(turn.reply)) {
        const before = lastSeen.get(paragraph);
        if (before !== undefined) expect(index - before, `turn ${index} repeats turn ${before}: ${paragraph}`).toBeGreaterThan(50);
        lastSeen.set(paragraph, index);
        checked += 1;
      }
      const choices = splitStoryChoices(turn.reply).choices.join("\n");
      const listBefore = lastSeen.get(choices);
      if (listBefore !== undefined) expect(index - listBefore, `turn ${index} repeats the choices of turn ${listBefore}`).toBeGreaterThan(50);
      lastSeen.set(choices, index);
    }
    expect(checked).toBeGreaterThanOrEqual(TURNS * 2);
  });

  it("tells the same story again for the same moves, and another for a retry", async () => {
    const again = await playScripted(
      brief,
      40,
      { seed: 17, introduction: player.introduction, name: player.name },
      { stats: seed.game.trackedStats },
    );
    expect(again.story.map((turn) => turn.reply)).toEqual(story.slice(0, 40).map((turn) => turn.reply));
    const before = story.slice(0, 30);
    const message = story[30]?.message ?? "";
    const retried = await tellOffline(brief, before, message, { seed: 2, stats: seed.game.trackedStats });
    expect(retried.reply).not.toBe(story[30]?.reply);
    expect(splitStoryChoices(retried.reply).choices.length).toBeGreaterThanOrEqual(3);
  });

  it("continues a reply with new paragraphs only", async () => {
    const upTo = story.slice(0, 60);
    const last = upTo.at(-1);
    if (!last) throw new Error("The story is empty.");
    const more = await tellOffline(brief, upTo, CONTINUE_INSTRUCTION, { stats: seed.game.trackedStats });
    expect(more.reply).toMatch(/^\n\n\S/);
    const seen = new Set(upTo.flatMap((turn) => storyParagraphs(turn.reply)));
    for (const paragraph of storyParagraphs(more.reply)) expect(seen.has(paragraph), paragraph).toBe(false);
    for (const pattern of NOT_IN_A_STORY) expect(more.reply).not.toMatch(pattern);
    expect(splitStoryChoices(more.reply).choices).toEqual([]);
    expect(world.title).toBe(seed.game.title);
  });
});
