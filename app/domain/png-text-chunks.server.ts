import { crc32 } from "node:zlib";
import { InvalidInputError } from "./errors.server.ts";

/**
 * A PNG's tEXt chunks (keyword, NUL, Latin-1 text), read and written by walking the chunk list
 * with every length checked against the file: character cards travel in them.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Length, type, then CRC around each chunk's data. */
const CHUNK_OVERHEAD = 12;

interface Chunk {
  type: string;
  start: number;
  dataStart: number;
  dataEnd: number;
  end: number;
}

export function isPng(bytes: Buffer): boolean {
  return bytes.length >= PNG_SIGNATURE.length && bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE);
}

function damaged(field: string): InvalidInputError {
  return new InvalidInputError("The PNG file is cut short or damaged: its chunks do not fit the file.", field);
}

/** Every chunk up to IEND; throws if one runs past the file or the file has no IEND. */
function chunks(bytes: Buffer, field: string): Chunk[] {
  if (!isPng(bytes)) throw new InvalidInputError("The file is not a PNG picture.", field);
  const found: Chunk[] = [];
  let position = PNG_SIGNATURE.length;
  while (position + CHUNK_OVERHEAD <= bytes.length) {
    const length = bytes.readUInt32BE(position);
    const dataStart = position + 8;
    const dataEnd = dataStart + length;
    const end = dataEnd + 4;
    if (length > 0x7fffffff || end > bytes.length) throw damaged(field);
    const chunk = { type: bytes.toString("latin1", position + 4, dataStart), start: position, dataStart, dataEnd, end };
    found.push(chunk);
    if (chunk.type === "IEND") return found;
    position = end;
  }
  throw damaged(field);
}

/** The text of the tEXt chunks with these keywords, by keyword (the first of each wins). */
export function readPngTexts(bytes: Buffer, keywords: readonly string[], field: string): Map<string, string> {
  const texts = new Map<string, string>();
  for (const chunk of chunks(bytes, field)) {
    if (chunk.type !== "tEXt") continue;
    const data = bytes.subarray(chunk.dataStart, chunk.dataEnd);
    const separator = data.indexOf(0);
    if (separator < 1) continue;
    const keyword = data.toString("latin1", 0, separator);
    if (!keywords.includes(keyword) || texts.has(keyword)) continue;
    const stored = bytes.readUInt32BE(chunk.dataEnd);
    if (stored !== crc32(bytes.subarray(chunk.start + 4, chunk.dataEnd))) {
      throw new InvalidInputError(`The PNG file's "${keyword}" text is damaged (its checksum does not match).`, field);
    }
    texts.set(keyword, data.toString("latin1", separator + 1));
  }
  return texts;
}

function textChunk(keyword: string, text: string): Buffer {
  const data = Buffer.concat([Buffer.from(keyword, "latin1"), Buffer.from([0]), Buffer.from(text, "latin1")]);
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write("tEXt", 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The PNG with these tEXt chunks just before IEND, and without any earlier tEXt chunk of the same
 * keywords (a cover that was itself a card would otherwise carry two).
 */
export function writePngTexts(bytes: Buffer, texts: ReadonlyMap<string, string>): Buffer {
  const parts: Buffer[] = [PNG_SIGNATURE];
  for (const chunk of chunks(bytes, "png")) {
    if (chunk.type === "IEND") {
      for (const [keyword, text] of texts) parts.push(textChunk(keyword, text));
    } else if (chunk.type === "tEXt") {
      const data = bytes.subarray(chunk.dataStart, chunk.dataEnd);
      const keyword = data.toString("latin1", 0, Math.max(0, data.indexOf(0)));
      if (texts.has(keyword)) continue;
    }
    parts.push(bytes.subarray(chunk.start, chunk.end));
  }
  return Buffer.concat(parts);
}
