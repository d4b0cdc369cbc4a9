/**
 * The state block a Game Master ends its reply with — `<state>{"Favour": 42}</state>` — taken out
 * of the reply as it streams. The player never sees it: text that could still turn out to be the
 * start of the block (a "<st" at the end of a token) is held back until the next token settles
 * it, and so is trailing white space, so the prose before the block does not end in blank lines.
 * A reply without a block comes through unchanged.
 */

export const STATE_OPEN = "<state>";
export const STATE_CLOSE = "</state>";

// The tags are found in the text as it was written, in any case of their ASCII letters and only
// those: searching a lower-cased copy and slicing the original goes wrong wherever lower case
// changes a text's length ("İ" becomes "i" and a combining dot, two characters for one).
const OPENING_TAG = /<state>/i;
const CLOSING_TAG = /<\/state>/i;

/** `text` with its ASCII capitals in lower case, and nothing else changed (nor its length). */
function asciiLowerCase(text: string) {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** The longest end of `text` that is the beginning of `tag` ("<sta" of "<state>"). */
function partialTagAtEnd(text: string, tag: string) {
  for (let length = Math.min(tag.length - 1, text.length); length > 0; length -= 1) {
    if (tag.startsWith(asciiLowerCase(text.slice(-length)))) return length;
  }
  return 0;
}

export class StateBlockFilter {
  /** Text received but not yet passed on: white space, or what may be the start of a block. */
  private held = "";
  /** Inside a block: what it holds so far. */
  private block: string | undefined;
  /** The text of each complete block, in order. */
  private readonly blocks: string[] = [];

  /** The prose in `delta` that can be shown now. */
  push(delta: string): string {
    let text = this.held + delta;
    this.held = "";
    let shown = "";
    for (;;) {
      if (this.block !== undefined) {
        // The closing tag may have begun in an earlier token.
        const inside = this.block + text;
        const close = inside.search(CLOSING_TAG);
        if (close < 0) {
          this.block = inside;
          return shown;
        }
        this.blocks.push(inside.slice(0, close));
        this.block = undefined;
        text = inside.slice(close + STATE_CLOSE.length);
        continue;
      }
      const open = text.search(OPENING_TAG);
      if (open < 0) break;
      shown += text.slice(0, open).trimEnd();
      this.block = "";
      text = text.slice(open + STATE_OPEN.length);
    }
    const partial = partialTagAtEnd(text, STATE_OPEN);
    const prose = text.slice(0, text.length - partial);
    const settled = prose.trimEnd();
    this.held = prose.slice(settled.length) + text.slice(text.length - partial);
    return shown + settled;
  }

  /**
   * What was held back and turned out to be prose (a lone "<st" at the very end). The white space
   * before a block goes with it; a reply without one comes through exactly as it was written.
   */
  end(): string {
    const rest = this.block !== undefined ? "" : this.blocks.length > 0 ? this.held.trimEnd() : this.held;
    this.held = "";
    return rest;
  }

  /** The newest complete block's contents, parsed; undefined when there was none or it is not JSON. */
  state(): unknown {
    const latest = this.blocks.at(-1);
    if (latest === undefined) return undefined;
    try {
      return JSON.parse(latest.trim().replace(/^```(?:json)?|```$/g, "")) as unknown;
    } catch {
      return undefined;
    }
  }
}
