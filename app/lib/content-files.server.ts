import { readdirSync, readFileSync } from "node:fs";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { projectPath } from "./project-path.server.ts";

/**
 * The Markdown files under content/ (games, built-in guides, blog, legal pages): YAML front
 * matter validated by a zod schema, then the body.
 */
export interface MarkdownFile<Attributes> {
  /** File name without `.md`. */
  name: string;
  attributes: Attributes;
  body: string;
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/;

export function parseMarkdownFile<Schema extends z.ZodType>(
  source: string,
  schema: Schema,
  name: string,
  /** Where the file is, for error messages. */
  location = name,
): MarkdownFile<z.output<Schema>> {
  const match = FRONT_MATTER.exec(source);
  const result = schema.safeParse(match ? parseYaml(match[1] ?? "") : {});
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new Error(`content file ${location}: ${issue?.path.join(".") || "front matter"} ${issue?.message ?? "is invalid"}`);
  }
  return { name, attributes: result.data, body: (match ? source.slice(match[0].length) : source).trim() };
}

/** Every `*.md` of a folder under content/, sorted by name; an absent folder has none. */
export function readMarkdownFolder<Schema extends z.ZodType>(folder: string[], schema: Schema): MarkdownFile<z.output<Schema>>[] {
  const directory = projectPath("content", ...folder);
  let names: string[];
  try {
    names = readdirSync(directory)
      .filter((file) => file.endsWith(".md"))
      .sort();
  } catch {
    return [];
  }
  return names.map((file) =>
    parseMarkdownFile(readFileSync(`${directory}/${file}`, "utf8"), schema, file.replace(/\.md$/, ""), `content/${folder.join("/")}/${file}`),
  );
}

/** The sub-folders of a folder under content/. */
export function listContentFolders(...folder: string[]): string[] {
  try {
    return readdirSync(projectPath("content", ...folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
