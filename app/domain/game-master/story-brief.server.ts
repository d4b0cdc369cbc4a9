import type { ContentType } from "../../lib/constants.ts";
import { resolveState, type StoryState, type TrackedStat } from "../../lib/tracked-stats.ts";

/**
 * What the Game Master knows about a game before the story starts: the admin's prompt and the
 * game's published world content. The system prompt is rendered from it in one documented shape,
 * which the offline storyteller reads back like any model would.
 */
export interface WorldSection {
  contentType: ContentType;
  title: string;
  content: string;
}

export interface StoryBrief {
  title: string;
  prompt: string;
  /** Most important first: when the budget is short, the last ones are left out. */
  sections: WorldSection[];
}

/**
 * The content types that describe the world, most important first. Tips, guides and FAQs are
 * written for players, not for the narrator, so they stay out of the model's context.
 */
export const WORLD_CONTENT_TYPES = [
  "story_background",
  "world_setting",
  "character_development",
  "dialogue_system",
  "combat_mechanics",
  "character_progression",
  "introduction",
] as const satisfies readonly ContentType[];

export type WorldContentType = (typeof WORLD_CONTENT_TYPES)[number];

export function isWorldContentType(type: string): type is WorldContentType {
  return (WORLD_CONTENT_TYPES as readonly string[]).includes(type);
}

export const OMITTED_TURNS_NOTE =
  "This story is long: some earlier turns are left out below to save space. The opening and the most recent turns follow; stay consistent with them.";

/** Asked of the model after the reply it should extend (Continue); the offline storyteller reads it too. */
export const CONTINUE_INSTRUCTION = "(Continue your last reply from exactly where it stopped. Do not repeat any of it.)";

/**
 * The tags the server's prompts are made of: the Game Master's system prompt, and the request for
 * a story's summary (story-summary.server.ts). The server alone writes them: text it places in a
 * prompt cannot open, close or imitate one (asPromptData, withoutPromptTags), so whoever reads the
 * prompt (a model, the offline storyteller) can tell the server's structure from the data inside it.
 */
export const PROMPT_TAGS = [
  "world_content",
  "story_so_far",
  "pinned_facts",
  "tracked_state",
  "lore",
  "check",
  "state",
  "new_events",
  "player",
  "game_master",
] as const;

type PromptTag = (typeof PROMPT_TAGS)[number];

/**
 * Text a player or a model wrote — the story so far, pinned facts, the author's note, a stat's
 * value, a message — as it goes into the prompt: data, never structure. Its angle brackets become
 * the single guillemets ‹ and ›, so it holds no tag at all, in any case or spelling, while a model
 * still reads "‹/story_so_far›" or "Grace ‹ 50" as the player wrote it. (Entities such as &lt; would
 * say the same to a model, but cost more tokens, make "&" ambiguous unless it is escaped too, and
 * read as markup wherever a model echoes them into prose: docs/decisions/043.)
 */
export function asPromptData(text: string) {
  return text.replaceAll("<", "‹").replaceAll(">", "›");
}

const PROMPT_TAG_START = new RegExp(`<(?=\\s*/?\\s*(?:${PROMPT_TAGS.join("|")})\\b)`, "gi");

/**
 * The game's own text — its prompt, titles and world content, written by its admin — as it goes
 * into the prompt: canon, with its markup kept as written, but unable to open or close any of the
 * prompt's blocks (a section cannot end itself early, nor forge the story's memory or state).
 */
export function withoutPromptTags(text: string) {
  return text.replace(PROMPT_TAG_START, "‹");
}

/** One of the prompt's blocks, around `content` that is already safe to place in it. */
export function tagged(tag: PromptTag, content: string, attributes = "") {
  return `<${tag}${attributes}>\n${content}\n</${tag}>`;
}

function escapeAttribute(value: string) {
  return withoutPromptTags(value).replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("\n", " ");
}

function unescapeAttribute(value: string) {
  return value.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

// A kept brief's sections are the same objects on every turn: each is rendered once.
const renderedSections = new WeakMap<WorldSection, string>();

export function renderWorldSection(section: WorldSection) {
  let rendered = renderedSections.get(section);
  if (rendered === undefined) {
    rendered = tagged(
      "world_content",
      withoutPromptTags(section.content).trim(),
      ` type="${section.contentType}" title="${escapeAttribute(section.title)}"`,
    );
    renderedSections.set(section, rendered);
  }
  return rendered;
}

export const WORLD_INTRODUCTION =
  "The game's published world content follows. Treat it as canon: keep names, places and rules consistent with it.";

/** The story's memory as the model reads it: what happened before the turns it is shown, and facts that always hold. */
export interface StoryMemory {
  summary: string;
  pinnedFacts: string;
}

export const STORY_SO_FAR_INTRODUCTION = "The story so far, before the turns below (keep to it):";
export const PINNED_FACTS_INTRODUCTION = "Facts the player has pinned. They always hold in this story:";

/** A memory part between tags of its own, which the player's text can neither close nor imitate. */
function memoryBlock(tag: PromptTag, text: string) {
  return tagged(tag, asPromptData(text).trim());
}

/** A game's tracked stats and the story's values of them, before the reply being asked for. */
export interface TrackedState {
  stats: TrackedStat[];
  values: StoryState;
}

const TRACKED_STATE_END = "Never mention the block or the numbers in your prose.";

/** The game's always-on lore, in its part of the system prompt (docs/decisions/054). */
export const GAME_LORE_INTRODUCTION = "Lore of this world, always true:";
/** The story's always-on lore, the player's own entries, with the story's memory. */
export const STORY_LORE_INTRODUCTION = "Lore the player keeps for this story, always true in it:";
/** Lore fired by this turn's words, with the player's message. */
export const TRIGGERED_LORE_INTRODUCTION = "Lore this turn brings up, true in this story:";

/**
 * Lore entries as the model reads them, one line each under their introduction. Their text is data
 * (a world's creator or a player wrote it), so none can open or close a block of the prompt.
 */
export function renderLore(introduction: string, lines: readonly string[]) {
  return `${introduction}\n\n${tagged("lore", lines.map((line) => `- ${asPromptData(line).replaceAll("\n", " ").trim()}`).join("\n"))}`;
}

export const TRACKED_STATE_INTRODUCTION = "This game keeps track of the story's state, which the player sees beside the story:";

const STAT_KIND_WORDS = { number: "a whole number from", text: "a short text", list: "a list of short texts" } as const;

function statLine(stat: TrackedStat, value: unknown) {
  const kind = stat.kind === "number" ? `${STAT_KIND_WORDS.number} ${stat.min} to ${stat.max}` : STAT_KIND_WORDS[stat.kind];
  return `- ${stat.name}: ${kind}. Now: ${asPromptData(JSON.stringify(value))}`;
}

/** Where the state's rules begin in the game's part of the system prompt (renderStateRules). */
const STATE_RULES_START = "End every reply with the state as it stands after your reply";

/**
 * How the reply must end in a game with tracked stats: with the state after it as one JSON object
 * between <state> and </state>, which the server takes out of the reply before anyone sees it. The
 * same on every turn of the game (its example gives the stats' starting values), so it goes in the
 * game's part of the system prompt; the values now go with the player's message (renderTrackedState).
 */
export function renderStateRules(stats: TrackedStat[]) {
  const example = asPromptData(JSON.stringify(resolveState(stats, {})));
  return `${STATE_RULES_START}, on a line of its own: one JSON object between <state> and </state> that gives every stat, for example <state>${example}</state>. Change a value only when the story gives a reason, and keep to each stat's kind and range. ${TRACKED_STATE_END}`;
}

/** The stats and their values now, before the reply being asked for. */
export function renderTrackedState({ stats, values }: TrackedState) {
  const lines = stats.map((stat) => statLine(stat, values[stat.name] ?? stat.start));
  return [TRACKED_STATE_INTRODUCTION, tagged("tracked_state", lines.join("\n"))].join("\n\n");
}

const STAT_LINE = /^- (.+?): (?:a whole number from (-?\d+) to (-?\d+)|(a short text)|(a list of short texts))\. Now: (.*)$/;

/** Reads the tracked state rendered by renderTrackedState back (the offline storyteller plays by it). */
export function readTrackedState(system: string): TrackedState | undefined {
  const block = /<tracked_state>\n([\s\S]*?)\n<\/tracked_state>/.exec(system)?.[1];
  if (block === undefined) return undefined;
  const stats: TrackedStat[] = [];
  const now: Record<string, unknown> = {};
  for (const line of block.split("\n")) {
    const [, name, min, max, text, list, value = "null"] = STAT_LINE.exec(line) ?? [];
    if (!name) continue;
    if (text) stats.push({ name, kind: "text", start: "" });
    else if (list) stats.push({ name, kind: "list", start: [] });
    else stats.push({ name, kind: "number", min: Number(min), max: Number(max), start: Number(min) });
    try {
      now[name] = JSON.parse(value) as unknown;
    } catch {
      // A value it cannot read is left at the stat's start.
    }
  }
  return { stats, values: resolveState(stats, now) };
}

/**
 * The system prompt as its parts, each sent as a system message of its own (docs/decisions/055):
 * first what stays the same for every story of the game (its heading, prompt and world content),
 * then what changes only now and then in a story (the story so far, pinned facts, the note that
 * turns were left out). A provider caches a request's beginning, so the part that changes less
 * comes first; what changes every turn (tracked state, the author's note) goes with the player's
 * message instead (renderTurnMessage).
 */
export function renderSystemPrompt(
  brief: { title: string; prompt: string },
  sections: WorldSection[],
  {
    turnsOmitted = false,
    memory,
    trackedStats = [],
    lore = { game: [], story: [] },
  }: {
    turnsOmitted?: boolean;
    memory?: StoryMemory;
    /** The game's stats, whose rules close its part. */
    trackedStats?: TrackedStat[];
    /** Always-on lore entries' lines: the game's go with the game, the story's with its memory. */
    lore?: { game: readonly string[]; story: readonly string[] };
  } = {},
): string[] {
  const stable = [`# ${withoutPromptTags(brief.title).replaceAll("\n", " ")}`, withoutPromptTags(brief.prompt.trim())];
  if (sections.length > 0) stable.push(WORLD_INTRODUCTION, ...sections.map(renderWorldSection));
  if (lore.game.length > 0) stable.push(renderLore(GAME_LORE_INTRODUCTION, lore.game));
  if (trackedStats.length > 0) stable.push(renderStateRules(trackedStats));
  const slow: string[] = [];
  if (memory?.summary.trim()) slow.push(STORY_SO_FAR_INTRODUCTION, memoryBlock("story_so_far", memory.summary));
  const facts = pinnedFactLines(memory?.pinnedFacts ?? "");
  if (facts.length > 0) slow.push(PINNED_FACTS_INTRODUCTION, memoryBlock("pinned_facts", facts.map((fact) => `- ${fact}`).join("\n")));
  if (lore.story.length > 0) slow.push(renderLore(STORY_LORE_INTRODUCTION, lore.story));
  if (turnsOmitted) slow.push(OMITTED_TURNS_NOTE);
  return [stable.join("\n\n"), ...(slow.length > 0 ? [slow.join("\n\n")] : [])];
}

/** The system messages as one text, as a reader that takes them together sees them (the offline storyteller). */
export function joinSystemPrompt(parts: readonly string[]) {
  return parts.join("\n\n");
}

/** Pinned facts are written one a line. */
export function pinnedFactLines(text: string) {
  return text
    .split("\n")
    .map((line) => line.replace(/^\s*[-*•]\s*/, "").trim())
    .filter(Boolean);
}

const SECTION = /<world_content type="([a-z_]+)" title="([^"]*)">\n([\s\S]*?)\n<\/world_content>/g;
const TITLE = /^# (.*)\n/;

/**
 * Where each part the server adds after the game's prompt begins: its introduction, then its
 * block's tag, which no text placed in the prompt can hold — a player's summary that quotes an
 * introduction is not taken for one.
 */
const ADDED_PART_STARTS = (
  [
    [WORLD_INTRODUCTION, "world_content"],
    [STORY_SO_FAR_INTRODUCTION, "story_so_far"],
    [PINNED_FACTS_INTRODUCTION, "pinned_facts"],
    [GAME_LORE_INTRODUCTION, "lore"],
    [STORY_LORE_INTRODUCTION, "lore"],
  ] as const satisfies readonly (readonly [string, PromptTag])[]
).map(([introduction, tag]) => `\n\n${introduction}\n\n<${tag}`);

/** Where the game's prompt ends in a system prompt rendered by renderSystemPrompt. */
function promptEnd(system: string) {
  const starts = [...ADDED_PART_STARTS, `\n\n${STATE_RULES_START}`].map((start) => system.indexOf(start)).filter((index) => index >= 0);
  if (starts.length > 0) return Math.min(...starts);
  return system.endsWith(`\n\n${OMITTED_TURNS_NOTE}`) ? system.length - OMITTED_TURNS_NOTE.length : system.length;
}

/** Reads a system prompt rendered by renderSystemPrompt back into its parts. */
export function parseSystemPrompt(system: string): StoryBrief {
  const sections: WorldSection[] = [];
  for (const match of system.matchAll(SECTION)) {
    const [, type = "", title = "", content = ""] = match;
    if (isWorldContentType(type)) sections.push({ contentType: type, title: unescapeAttribute(title), content });
  }
  const title = TITLE.exec(system);
  const start = title ? title[0].length : 0;
  return { title: title?.[1]?.trim() ?? "", prompt: system.slice(start, promptEnd(system)).trim(), sections };
}
