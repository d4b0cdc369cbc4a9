import { crc32 } from "node:zlib";
import sharp from "sharp";
import { expect } from "vitest";

/**
 * Image files built byte by byte for the upload checks (covers, character cards): pictures with
 * content, PNG chunks, JPEG segments, Multi-Picture Format indexes, ISO BMFF boxes and Google's
 * motion-photo XMP, as phones and encoders write them.
 */

/** A picture with something in it (a flat colour would compress to nothing and hide mistakes). */
export function picture(width: number, height: number) {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * channels;
      pixels[at] = (x * 255) / width;
      pixels[at + 1] = (y * 255) / height;
      pixels[at + 2] = (x ^ y) & 0xff;
    }
  }
  return sharp(pixels, { raw: { width, height, channels } });
}

export const png = (width = 1600, height = 900) => picture(width, height).png().toBuffer();

/** A PNG chunk (length, type, data, CRC). */
export function pngChunk(type: string, data: Buffer) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A JPEG marker segment: the marker, a 16-bit length that counts itself, the data. */
export function jpegSegment(marker: number, data: Buffer) {
  const header = Buffer.from([0xff, marker, 0, 0]);
  header.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([header, data]);
}

const MPF_TAGS = 3;
/** Where the MP entries start in the MPF TIFF data: after the header, the IFD's count, tags and next-IFD offset. */
const MPF_ENTRIES_AT = 8 + 2 + MPF_TAGS * 12 + 4;

/**
 * An APP2 Multi-Picture Format segment (CIPA DC-007), as Android's Ultra HDR encoder and cameras
 * write it: `MPF\0`, a TIFF header in either byte order, one IFD (MPFVersion "0100",
 * NumberOfImages, MPEntry) and the 16-byte MP entries: attribute, size, offset from the TIFF
 * header (0 for the first picture), two dependent-picture entry numbers.
 */
function mpfSegment(images: { size: number; offset: number }[], byteOrder: "big-endian" | "little-endian") {
  const tiff = Buffer.alloc(MPF_ENTRIES_AT + 16 * images.length);
  const bigEndian = byteOrder === "big-endian";
  const u16 = (value: number, at: number) => (bigEndian ? tiff.writeUInt16BE(value, at) : tiff.writeUInt16LE(value, at));
  const u32 = (value: number, at: number) => (bigEndian ? tiff.writeUInt32BE(value, at) : tiff.writeUInt32LE(value, at));
  tiff.write(bigEndian ? "MM\0*" : "II*\0", 0, "latin1");
  u32(8, 4);
  u16(MPF_TAGS, 8);
  const tag = (index: number, id: number, type: number, count: number, value: number | string) => {
    const at = 10 + index * 12;
    u16(id, at);
    u16(type, at + 2);
    u32(count, at + 4);
    if (typeof value === "string") tiff.write(value, at + 8, "latin1");
    else u32(value, at + 8);
  };
  const [UNDEFINED, LONG] = [7, 4];
  tag(0, 0xb000, UNDEFINED, 4, "0100");
  tag(1, 0xb001, LONG, 1, images.length);
  tag(2, 0xb002, UNDEFINED, 16 * images.length, MPF_ENTRIES_AT);
  images.forEach(({ size, offset }, index) => {
    const at = MPF_ENTRIES_AT + 16 * index;
    // The first is the representative baseline primary picture; a gain map is a plain dependent one.
    u32(index === 0 ? 0x20030000 : 0, at);
    u32(size, at + 4);
    u32(offset, at + 8);
  });
  return jpegSegment(0xe2, Buffer.concat([Buffer.from("MPF\0", "latin1"), tiff]));
}

/**
 * A multi-picture JPEG: the primary with an MPF index right after its SOI, then `appended` laid end
 * to end, each declared in the index where it is and at its size (whatever it really holds).
 */
export function multiPicture(primary: Buffer, appended: Buffer[], byteOrder: "big-endian" | "little-endian" = "big-endian") {
  const segmentLength = 4 + 4 + MPF_ENTRIES_AT + 16 * (1 + appended.length);
  const tiffHeaderAt = 2 + 4 + 4; // SOI, the segment's marker and length, "MPF\0".
  const images = [{ size: primary.length + segmentLength, offset: 0 }];
  let position = primary.length + segmentLength;
  for (const picture of appended) {
    images.push({ size: picture.length, offset: position - tiffHeaderAt });
    position += picture.length;
  }
  const segment = mpfSegment(images, byteOrder);
  expect(segment.length).toBe(segmentLength);
  return Buffer.concat([primary.subarray(0, 2), segment, primary.subarray(2), ...appended]);
}

/** An ISO BMFF box: a 32-bit size, a four-letter type, the data; or size 1 and a 64-bit size after the type. */
export function isoBox(type: string, data: Buffer, { largeSize = false } = {}) {
  const header = Buffer.alloc(largeSize ? 16 : 8);
  header.write(type, 4, "latin1");
  if (largeSize) {
    header.writeUInt32BE(1);
    header.writeBigUInt64BE(BigInt(16 + data.length), 8);
  } else header.writeUInt32BE(8 + data.length);
  return Buffer.concat([header, data]);
}

/** The start of an MP4 as a phone appends it: `ftyp`, then the media data (here filler, not video). */
export function mp4({ largeSize = false } = {}) {
  const media = Buffer.from(Array.from({ length: 4096 }, (_, index) => (index * 37) & 0xff));
  return Buffer.concat([isoBox("ftyp", Buffer.from("mp42\0\0\0\0isommp42", "latin1")), isoBox("mdat", media, { largeSize })]);
}

/**
 * XMP as Google's camera writes it: the MotionPhoto flag, and a Container directory listing the
 * primary and each appended item (mime, semantic, length), the video last.
 */
export function motionPhotoXmp({ flag = true, directory = [] as [mime: string, semantic: string, length: number][] } = {}) {
  const items = [["image/jpeg", "Primary", 0] as const, ...directory].map(
    ([mime, semantic, length]) =>
      `<rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="${mime}" Item:Semantic="${semantic}" Item:Length="${length}"/></rdf:li>`,
  );
  return [
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">`,
    `<rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/"`,
    ` xmlns:Container="http://ns.google.com/photos/1.0/container/" xmlns:Item="http://ns.google.com/photos/1.0/container/item/"`,
    flag ? ` GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" GCamera:MotionPhotoPresentationTimestampUs="0">` : ">",
    directory.length > 0 ? `<Container:Directory><rdf:Seq>${items.join("")}</rdf:Seq></Container:Directory>` : "",
    `</rdf:Description></rdf:RDF></x:xmpmeta>`,
  ].join("");
}

/** A gain map as Ultra HDR stores it: a small greyscale JPEG. */
export const gainMap = () => picture(400, 225).greyscale().jpeg().toBuffer();
