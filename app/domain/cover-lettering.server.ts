import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import opentype from "opentype.js";

/**
 * A game's title drawn as outlines in the site's display face (Cormorant Garamond 700), for its
 * generated cover. A picture shown by `<img>` cannot load the page's web fonts, and the
 * link-preview card is drawn by librsvg, which has none: outlines look the same everywhere.
 */

export interface Lettering {
  /** SVG path data, one entry per line, laid out centred on the box. */
  lines: string[];
  fontSize: number;
}

const FONT_FILE = "@fontsource/cormorant-garamond/files/cormorant-garamond-latin-700-normal.woff";
type Font = ReturnType<typeof opentype.parse>;
let font: Font | undefined;

function displayFont(): Font {
  if (!font) {
    const bytes = readFileSync(createRequire(import.meta.url).resolve(FONT_FILE));
    font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  }
  return font;
}

type Command = ReturnType<Font["getPath"]>["commands"][number];

/**
 * SVG path data of outline commands. Written here because opentype.js 2.0's own `toPathData`
 * writes NaN for some letters after a space (its path optimiser), which breaks the whole path.
 */
function pathData(commands: Command[]): string {
  // Whole units of a 1200-wide canvas: the error is under a pixel on the largest picture drawn
  // from it, and the document (the first picture of a catalogue page) is a third smaller.
  const n = (value: number) => String(Math.round(value));
  return commands
    .map((command) => {
      switch (command.type) {
        case "M":
        case "L":
          return `${command.type}${n(command.x)} ${n(command.y)}`;
        case "Q":
          return `Q${n(command.x1)} ${n(command.y1)} ${n(command.x)} ${n(command.y)}`;
        case "C":
          return `C${n(command.x1)} ${n(command.y1)} ${n(command.x2)} ${n(command.y2)} ${n(command.x)} ${n(command.y)}`;
        case "Z":
          return "Z";
      }
    })
    .join("");
}

/** The two halves of a title split at the space nearest its middle. */
function twoLines(title: string): [string, string] | undefined {
  const middle = title.length / 2;
  let best = -1;
  for (let index = title.indexOf(" "); index !== -1; index = title.indexOf(" ", index + 1)) {
    if (best === -1 || Math.abs(index - middle) < Math.abs(best - middle)) best = index;
  }
  return best === -1 ? undefined : [title.slice(0, best), title.slice(best + 1)];
}

/**
 * The title at the largest size up to `maxSize` that fits `box` (one line, or two when one would
 * be small), centred on it; undefined when the face lacks one of its letters (the art then sets
 * the title as text in whatever serif face the viewer has).
 */
export function letterTitle(title: string, box: { centerX: number; centerY: number; width: number; maxSize: number }): Lettering | undefined {
  const face = displayFont();
  const text = title.replace(/\s+/g, " ").trim();
  if (!text) return undefined;
  for (const character of text) if (character !== " " && face.charToGlyph(character).index === 0) return undefined;

  const sizeFor = (lines: string[]) => Math.min(box.maxSize, ...lines.map((line) => box.width / face.getAdvanceWidth(line, 1)));
  let lines = [text];
  const split = twoLines(text);
  if (split && sizeFor(lines) < box.maxSize * 0.7 && sizeFor(split) > sizeFor(lines)) lines = split;
  const fontSize = Math.floor(sizeFor(lines));

  const lineHeight = fontSize * 1.05;
  // The baseline sits about a third of the size below the middle of the capitals.
  const firstBaseline = box.centerY - ((lines.length - 1) * lineHeight) / 2 + fontSize * 0.3;
  return {
    fontSize,
    lines: lines.map((line, index) => {
      const x = box.centerX - face.getAdvanceWidth(line, fontSize) / 2;
      return pathData(face.getPath(line, x, firstBaseline + index * lineHeight, fontSize).commands);
    }),
  };
}
