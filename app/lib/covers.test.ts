import { describe, expect, it } from "vitest";
import { artVersion, coverImage, coverPalette, parseUploadedCoverFile, parseVersionedFile, socialCardPath } from "./covers.ts";

const game = { slug: "empress-simulator", title: "Empress Simulator", icon: "Crown", coverHash: null };
const hash = "0123456789abcdef0123456789abcdef";

describe("cover addresses", () => {
  it("name generated art by a version that changes with anything it is drawn from", () => {
    const version = artVersion(game);
    expect(version).toMatch(/^[0-9a-f]{16}$/);
    expect(artVersion({ ...game })).toBe(version);
    expect(artVersion({ ...game, title: "Empress Simulator II" })).not.toBe(version);
    expect(artVersion({ ...game, icon: "Sword" })).not.toBe(version);
    expect(artVersion({ ...game, slug: "empress" })).not.toBe(version);
    expect(coverImage(game)).toEqual({ kind: "art", src: `/covers/art/empress-simulator-${version}.svg`, width: 1200, height: 675 });
    expect(socialCardPath(game)).toBe(`/covers/og/empress-simulator-${version}.jpg`);
  });

  it("give an upload an AVIF and a WebP srcset over every stored width, and its own card", () => {
    expect(coverImage({ ...game, coverHash: hash })).toEqual({
      kind: "upload",
      avif: `/covers/${hash}-400.avif 400w, /covers/${hash}-800.avif 800w, /covers/${hash}-1200.avif 1200w`,
      webp: `/covers/${hash}-400.webp 400w, /covers/${hash}-800.webp 800w, /covers/${hash}-1200.webp 1200w`,
      src: `/covers/${hash}-800.webp`,
      width: 1200,
      height: 675,
    });
    expect(socialCardPath({ ...game, coverHash: hash })).toBe(`/covers/og/empress-simulator-${hash}.jpg`);
  });

  it("read back only the names they make", () => {
    expect(parseUploadedCoverFile(`${hash}-400.avif`)).toEqual({ hash, width: 400, format: "avif" });
    expect(parseUploadedCoverFile(`${hash}-1200.jpg`)).toEqual({ hash, width: 1200, format: "jpeg" });
    for (const name of [`${hash}-400.png`, `${hash}-400.avif.html`, `../${hash}-400.avif`, "ABCDEF0123456789-400.avif", `${hash}-40.webp`]) {
      expect(parseUploadedCoverFile(name), name).toBeUndefined();
    }
    expect(parseVersionedFile("mary-sue-campus-0123456789abcdef.svg", "svg")).toEqual({ slug: "mary-sue-campus", version: "0123456789abcdef" });
    expect(parseVersionedFile("mary-sue-campus-0123456789abcdef.svg", "jpg")).toBeUndefined();
    expect(parseVersionedFile("Mary-0123456789abcdef.svg", "svg")).toBeUndefined();
  });
});

describe("coverPalette", () => {
  it("gives games with different icons different colours, as hex every renderer reads", () => {
    const accents = ["Crown", "Sparkles", "Star", "GraduationCap", "Users", "Sword", "Heart"].map((icon) => coverPalette(icon, 12345).accent);
    expect(new Set(accents).size).toBe(accents.length);
    for (const accent of accents) expect(accent).toMatch(/^#[0-9a-f]{6}$/);
  });
});
