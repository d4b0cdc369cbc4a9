/** docs/spec.md §5 and §9: hints shown while writing, never enforced. */
export const DESCRIPTION_HINT_LENGTH = 160;

export const WORD_TARGETS = {
  multiSection: 300,
  gameContent: 500,
  guide: 1000,
} as const;

/** Words a reader will see: HTML tags and Markdown punctuation do not count. */
export function countWords(text: string): number {
  const visible = text.replace(/<[^>]*>/g, " ").replace(/\]\([^)]*\)/g, " ");
  return visible.match(/[\p{L}\p{N}]+(?:['’-][\p{L}\p{N}]+)*/gu)?.length ?? 0;
}

export interface WritingHint {
  text: string;
  /** The target is met: the hint reads as praise rather than a nudge. */
  met: boolean;
}

export function wordCountHint(text: string, target: number): WritingHint {
  const words = countWords(text);
  const counted = `${words.toLocaleString("en-US")} ${words === 1 ? "word" : "words"}`;
  return words >= target
    ? { text: `${counted} — meets the ${target.toLocaleString("en-US")}+ word target`, met: true }
    : { text: `${counted} — aim for ${target.toLocaleString("en-US")}+ words for search engines`, met: false };
}

export function descriptionHint(description: string): WritingHint {
  const length = description.trim().length;
  if (length === 0) return { text: `Search results show up to ${DESCRIPTION_HINT_LENGTH} characters`, met: false };
  return length < DESCRIPTION_HINT_LENGTH
    ? { text: `${length}/${DESCRIPTION_HINT_LENGTH} characters — fits in search results`, met: true }
    : {
        text: `${length}/${DESCRIPTION_HINT_LENGTH} characters — keep it under ${DESCRIPTION_HINT_LENGTH} so search results show all of it`,
        met: false,
      };
}
