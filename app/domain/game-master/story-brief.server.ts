import type { ContentType } from "../../lib/constants.ts";

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

function escapeAttribute(value: string) {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("\n", " ");
}

function unescapeAttribute(value: string) {
  return value.replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

export function renderWorldSection(section: WorldSection) {
  // A section must not be able to close its own tag early.
  const content = section.content.replaceAll("</world_content>", "</ world_content>").trim();
  return `<world_content type="${section.contentType}" title="${escapeAttribute(section.title)}">\n${content}\n</world_content>`;
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

/** A memory part between tags of its own: the player's text cannot close it early. */
function memoryBlock(tag: string, text: string) {
  return `<${tag}>\n${text.replaceAll(`</${tag}>`, `</ ${tag}>`).trim()}\n</${tag}>`;
}

export function renderSystemPrompt(
  brief: { title: string; prompt: string },
  sections: WorldSection[],
  { turnsOmitted = false, memory }: { turnsOmitted?: boolean; memory?: StoryMemory } = {},
) {
  const parts = [`# ${brief.title.replaceAll("\n", " ")}`, brief.prompt.trim()];
  if (sections.length > 0) parts.push(WORLD_INTRODUCTION, ...sections.map(renderWorldSection));
  if (memory?.summary.trim()) parts.push(STORY_SO_FAR_INTRODUCTION, memoryBlock("story_so_far", memory.summary));
  const facts = pinnedFactLines(memory?.pinnedFacts ?? "");
  if (facts.length > 0) parts.push(PINNED_FACTS_INTRODUCTION, memoryBlock("pinned_facts", facts.map((fact) => `- ${fact}`).join("\n")));
  if (turnsOmitted) parts.push(OMITTED_TURNS_NOTE);
  return parts.join("\n\n");
}

/** Pinned facts are written one a line. */
export function pinnedFactLines(text: string) {
  return text
    .split("\n")
    .map((line) => line.replace(/^\s*[-*•]\s*/, "").trim())
    .filter(Boolean);
}

const AUTHOR_NOTE = /^\[Author's note: ([\s\S]*?)\]\n\n/;

/**
 * The author's note goes near the end of the context, as NovelAI and SillyTavern place it: just
 * before the player's new message, in the same turn.
 */
export function withAuthorNote(message: string, note: string) {
  const text = note.replace(/\s+/g, " ").replaceAll("[", "(").replaceAll("]", ")").trim();
  return text ? `[Author's note: ${text}]\n\n${message}` : message;
}

/** The player's message without the author's note before it (the offline storyteller reads the action alone). */
export function withoutAuthorNote(message: string) {
  return message.replace(AUTHOR_NOTE, "");
}

const SECTION = /<world_content type="([a-z_]+)" title="([^"]*)">\n([\s\S]*?)\n<\/world_content>/g;
const TITLE = /^# (.*)\n/;

/** Reads a system prompt rendered by renderSystemPrompt back into its parts. */
export function parseSystemPrompt(system: string): StoryBrief {
  const sections: WorldSection[] = [];
  for (const match of system.matchAll(SECTION)) {
    const [, type = "", title = "", content = ""] = match;
    if (isWorldContentType(type)) sections.push({ contentType: type, title: unescapeAttribute(title), content });
  }
  const title = TITLE.exec(system);
  const start = title ? title[0].length : 0;
  const introduction = system.indexOf(WORLD_INTRODUCTION);
  const end = introduction >= 0 ? introduction : system.length;
  const prompt = system
    .slice(start, end)
    .replace(/<story_so_far>[\s\S]*?<\/story_so_far>|<pinned_facts>[\s\S]*?<\/pinned_facts>/g, "")
    .replace(STORY_SO_FAR_INTRODUCTION, "")
    .replace(PINNED_FACTS_INTRODUCTION, "")
    .replace(OMITTED_TURNS_NOTE, "")
    .trim();
  return { title: title?.[1]?.trim() ?? "", prompt, sections };
}
