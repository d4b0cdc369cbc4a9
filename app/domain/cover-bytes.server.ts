/**
 * What an uploaded picture file is, by its bytes (docs/decisions/033): where each container
 * (PNG, WebP, JPEG with what a phone declares after it) ends, and whether anything else rides
 * along. covers.server.ts refuses what this finds.
 */

/** Where a PNG's last chunk (IEND) ends, walking its chunks; undefined if they run past the file. */
function pngEnd(bytes: Buffer): number | undefined {
  let position = 8;
  while (position + 12 <= bytes.length) {
    const length = bytes.readUInt32BE(position);
    const type = bytes.toString("latin1", position + 4, position + 8);
    position += 12 + length;
    if (type === "IEND") return position;
  }
  return undefined;
}

/** Where a WebP's RIFF container ends, as its header declares. */
function webpEnd(bytes: Buffer): number | undefined {
  if (bytes.length < 12 || bytes.toString("latin1", 0, 4) !== "RIFF") return undefined;
  return 8 + bytes.readUInt32LE(4);
}

/** A marker of a JPEG, where its segment's data starts and where the segment ends. */
interface JpegSegment {
  marker: number;
  dataStart: number;
  end: number;
}

/**
 * A JPEG's markers in order, skipping the entropy-coded data after each start-of-scan (where 0xFF
 * is followed by 0x00 or a restart marker); it stops where the bytes stop being a JPEG. Lazy: a
 * reader of the header stops at the scan without walking the picture's data.
 */
function* jpegSegments(bytes: Buffer): Generator<JpegSegment> {
  let position = 2;
  while (position + 1 < bytes.length) {
    if (bytes[position] !== 0xff) return;
    const marker = bytes[position + 1] ?? 0;
    if (marker === 0xff) {
      position += 1;
      continue;
    }
    if (marker === 0xd9 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      position += 2;
      yield { marker, dataStart: position, end: position };
      continue;
    }
    if (position + 3 >= bytes.length) return;
    const dataStart = position + 4;
    position += 2 + bytes.readUInt16BE(position + 2);
    if (position > bytes.length) return;
    yield { marker, dataStart, end: position };
    if (marker !== 0xda) continue;
    while (position + 1 < bytes.length) {
      const next = bytes[position + 1] ?? 0;
      if (bytes[position] === 0xff && next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
      position += 1;
    }
  }
}

/** Where a JPEG's end-of-image marker ends. */
function jpegEnd(bytes: Buffer): number | undefined {
  for (const segment of jpegSegments(bytes)) if (segment.marker === 0xd9) return segment.end;
  return undefined;
}

/**
 * The data of the first segment before a JPEG's scan with this marker whose data begins with
 * `signature`, from just past the signature (an APP1 may be EXIF or XMP, an APP2 ICC or MPF).
 */
function jpegHeaderSegment(bytes: Buffer, marker: number, signature: string): { start: number; end: number } | undefined {
  for (const segment of jpegSegments(bytes)) {
    if (segment.marker === 0xda || segment.marker === 0xd9) return undefined;
    const start = segment.dataStart;
    if (segment.marker === marker && bytes.toString("latin1", start, start + signature.length) === signature) {
      return { start: start + signature.length, end: segment.end };
    }
  }
  return undefined;
}

/**
 * The pictures after the first that a JPEG's Multi-Picture Format index (CIPA DC-007, an APP2
 * `MPF\0` segment holding a TIFF-style IFD) declares: where each starts in the file and its size.
 * Ultra HDR gain maps and camera previews are declared this way.
 */
function mpfDeclaredImages(bytes: Buffer): { start: number; size: number }[] {
  const segment = jpegHeaderSegment(bytes, 0xe2, "MPF\0");
  if (!segment) return [];
  const tiff = bytes.subarray(segment.start, segment.end);
  const byteOrder = tiff.toString("latin1", 0, 4);
  if (byteOrder !== "MM\0*" && byteOrder !== "II*\0") return [];
  const bigEndian = byteOrder === "MM\0*";
  const u16 = (at: number) => (bigEndian ? tiff.readUInt16BE(at) : tiff.readUInt16LE(at));
  const u32 = (at: number) => (bigEndian ? tiff.readUInt32BE(at) : tiff.readUInt32LE(at));
  try {
    const ifd = u32(4);
    for (let tag = ifd + 2; tag < ifd + 2 + 12 * u16(ifd); tag += 12) {
      if (u16(tag) !== 0xb002) continue; // MP Entry: 16 bytes a picture (attribute, size, offset, two dependants).
      const entries = u32(tag + 8);
      const images: { start: number; size: number }[] = [];
      for (let entry = entries; entry + 16 <= entries + u32(tag + 4); entry += 16) {
        // The first picture is the one sharp read (offset 0); the others' offsets count from the TIFF header.
        const offset = u32(entry + 8);
        if (offset !== 0) images.push({ start: segment.start + offset, size: u32(entry + 4) });
      }
      return images;
    }
  } catch (error) {
    // An index that points outside its own segment declares nothing (Buffer's reads throw there).
    if (error instanceof RangeError) return [];
    throw error;
  }
  return [];
}

/**
 * A motion photo's XMP (Google's Motion Photo format, and the older MicroVideo) saying a video is
 * appended. Matched by local name: XMP prefixes are free (the spec writes `Camera:`, Pixels write
 * `GCamera:`), and the value may be an attribute or an element.
 */
const MOTION_PHOTO_DECLARATION = /:(?:MotionPhoto|MicroVideo)(?:\s*=\s*["']1["']|>\s*1\s*<)|:Mime(?:\s*=\s*["']video\/mp4["']|>\s*video\/mp4\s*<)/;

function declaresMotionPhoto(bytes: Buffer): boolean {
  const xmp = jpegHeaderSegment(bytes, 0xe1, "http://ns.adobe.com/xap/1.0/\0");
  return xmp !== undefined && MOTION_PHOTO_DECLARATION.test(bytes.toString("utf8", xmp.start, xmp.end));
}

/** A top-level ISO BMFF box's type is four printable ASCII letters; other bytes there are no box. */
const ISO_BOX_TYPE = /^[\x20-\x7e]{4}$/;

/**
 * Where the ISO BMFF top-level boxes (an MP4) that begin at `start` with `ftyp` end: each box is a
 * 32-bit size and a four-letter type, size 1 meaning a 64-bit size follows and 0 "to the end".
 */
function isoBoxesEnd(bytes: Buffer, start: number): number | undefined {
  if (bytes.toString("latin1", start + 4, start + 8) !== "ftyp") return undefined;
  let position = start;
  while (position + 8 <= bytes.length) {
    if (!ISO_BOX_TYPE.test(bytes.toString("latin1", position + 4, position + 8))) return undefined;
    const size = bytes.readUInt32BE(position);
    if (size === 0) return bytes.length;
    const boxSize = size === 1 && position + 16 <= bytes.length ? Number(bytes.readBigUInt64BE(position + 8)) : size;
    if (boxSize < (size === 1 ? 16 : 8)) return undefined;
    position += boxSize;
  }
  return position;
}

/**
 * Where a JPEG file ends by its own account: its picture, then what it declares comes after, as
 * phones write it: whole JPEGs where its MPF index puts them (a gain map, a preview, a depth map),
 * then, if its XMP declares a motion photo, an MP4 to the end of the file. A trailing JPEG must sit
 * where the index says and reach its EOI at the size the index says, not merely be a whole JPEG:
 * cameras and Android's Ultra HDR encoder write that index, a JPEG pasted after another has none,
 * so asking for it costs no MPF photo and keeps the rule "declared" rather than "anything that
 * parses". What is inside is not inspected (a JPEG or an MP4 can carry anything, as the primary
 * can): the file must be the shape its own metadata says, and nothing of it is kept.
 */
function jpegDeclaredEnd(bytes: Buffer): number | undefined {
  const pictureEnd = jpegEnd(bytes);
  if (pictureEnd === undefined || pictureEnd >= bytes.length) return pictureEnd;
  const declaredImages = mpfDeclaredImages(bytes);
  let position = pictureEnd;
  for (;;) {
    const image = declaredImages.find((candidate) => candidate.start === position);
    if (!image) break;
    const end = position + image.size;
    if (end > bytes.length || bytes[position] !== 0xff || bytes[position + 1] !== 0xd8) return position;
    if (jpegEnd(bytes.subarray(position, end)) !== image.size) return position;
    position = end;
  }
  if (position < bytes.length && declaresMotionPhoto(bytes) && isoBoxesEnd(bytes, position) === bytes.length) return bytes.length;
  return position;
}

const CONTAINER_END: Record<string, (bytes: Buffer) => number | undefined> = { png: pngEnd, webp: webpEnd, jpeg: jpegDeclaredEnd };

/**
 * Markup and script that make a picture file something else too (an HTML page or a PHP script in
 * a comment or a text chunk). Long enough that compressed picture data never holds one by chance.
 */
const FOREIGN_CONTENT = /<script|<html|<\?php|<!doctype|<iframe|<body|<object|<embed/i;

/**
 * A polyglot is a file that is a valid picture and also something else: a ZIP, a page or a script
 * after the picture's end, or markup hidden inside it. We re-encode, so such bytes are never
 * served; we refuse the file anyway so nothing of it is stored, and so the admin learns it. A
 * phone's JPEG ends after what it declares comes after its picture (jpegDeclaredEnd): refusing
 * that would refuse ordinary Android and iPhone photos, and sharp reads only the first picture.
 *
 * Returns why the file is refused, in words for the admin, or undefined for a plain picture.
 */
export function polyglotProblem(bytes: Buffer, format: string): string | undefined {
  const end = CONTAINER_END[format]?.(bytes);
  if (end === undefined || end > bytes.length) return "The picture is damaged: its data ends before the file does. Export it again and upload it.";
  if (end < bytes.length) {
    return "The file has extra data after the picture, so it may be more than a picture. Export it again as a plain JPEG, PNG or WebP.";
  }
  if (FOREIGN_CONTENT.test(bytes.toString("latin1"))) {
    return "The file holds web page or script code inside the picture. Export it again as a plain JPEG, PNG or WebP.";
  }
  return undefined;
}
