import { z } from "zod";
import { readMarkdownFolder } from "../lib/content-files.server.ts";

/** The Privacy and Terms pages: content/legal/{privacy,terms}.md with the support address filled in. */

export type LegalPageName = "privacy" | "terms";

export interface LegalPage {
  title: string;
  /** ISO date of the last change. */
  updated: string;
  /** Markdown. */
  body: string;
}

const legalFileSchema = z.object({
  title: z.string().min(1),
  updated: z
    .union([z.string().regex(/^\d{4}-\d{2}-\d{2}/), z.date()])
    .transform((value) => (value instanceof Date ? value.toISOString() : value).slice(0, 10)),
});

let files: ReturnType<typeof readLegalFiles> | undefined;

function readLegalFiles() {
  return readMarkdownFolder(["legal"], legalFileSchema);
}

export function getLegalPage(name: LegalPageName, supportEmail: string): LegalPage {
  files ??= readLegalFiles();
  const file = files.find((page) => page.name === name);
  if (!file) throw new Error(`content/legal/${name}.md is missing`);
  return { title: file.attributes.title, updated: file.attributes.updated, body: file.body.replaceAll("{support_email}", supportEmail) };
}
