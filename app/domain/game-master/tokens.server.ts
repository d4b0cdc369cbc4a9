/**
 * Token counts without a tokenizer. Models count differently, so this errs on the high side: about
 * 3.5 characters per token for ASCII text (English prose runs near 4) and one token per
 * character otherwise (CJK text is close to that; accented Latin is cheaper).
 */

const ASCII_CHARACTERS_PER_TOKEN = 3.5;
/** What a chat message costs beyond its text (role markers, separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

export function estimateTokens(text: string): number {
  let other = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (text.charCodeAt(index) > 127) other += 1;
  }
  const ascii = text.length - other;
  return Math.ceil(ascii / ASCII_CHARACTERS_PER_TOKEN) + other;
}

/**
 * No text of more characters can fit in `tokens`: every character counts at least 1/3.5 of a
 * token (PostgreSQL's length() and a string's length both count a character at least once).
 */
function mostCharactersWithin(tokens: number): number {
  return Math.ceil(tokens * ASCII_CHARACTERS_PER_TOKEN);
}

export function estimateMessageTokens(content: string): number {
  return estimateTokens(content) + MESSAGE_OVERHEAD_TOKENS;
}

/** The longest prefix of `text` (cut at a word boundary when possible) within `maxTokens`. */
export function truncateToTokens(text: string, maxTokens: number): string {
  if (maxTokens <= 0) return "";
  if (estimateTokens(text) <= maxTokens) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (estimateTokens(text.slice(0, middle)) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  const cut = text.slice(0, low);
  const boundary = cut.search(/\s\S*$/);
  return (boundary > low * 0.8 ? cut.slice(0, boundary) : cut).trimEnd();
}

/**
 * What a call reads of the stored story at most for a context of `budgetTokens`: enough exchanges
 * to fill it with short turns, and no more characters than it could hold.
 */
export function storyReadLimits(budgetTokens: number) {
  return { maxExchanges: Math.min(1000, Math.max(20, Math.ceil(budgetTokens / 50))), maxCharacters: mostCharactersWithin(budgetTokens) };
}
