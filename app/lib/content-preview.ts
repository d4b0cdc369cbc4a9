import { CONTENT_PREVIEW_LENGTH } from "./constants.ts";

/**
 * SPEC's card preview: the first 100 characters of a record's content, as a reader would see
 * them — without Markdown marks or HTML tags — with '...' when there is more.
 */
export function contentPreview(content: string): string {
  const text = content
    .replace(/<[^>]*>/g, " ")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[#*_`>~|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > CONTENT_PREVIEW_LENGTH ? `${text.slice(0, CONTENT_PREVIEW_LENGTH)}...` : text;
}
