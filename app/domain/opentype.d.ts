/** The part of opentype.js (which ships no types) the cover lettering uses. */
declare module "opentype.js" {
  interface Glyph {
    index: number;
  }
  type PathCommand =
    | { type: "M" | "L"; x: number; y: number }
    | { type: "Q"; x1: number; y1: number; x: number; y: number }
    | { type: "C"; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
    | { type: "Z" };
  interface Path {
    commands: PathCommand[];
  }
  interface Font {
    charToGlyph(character: string): Glyph;
    getAdvanceWidth(text: string, fontSize: number): number;
    getPath(text: string, x: number, y: number, fontSize: number): Path;
  }
  const opentype: { parse(buffer: ArrayBuffer): Font };
  export default opentype;
}
