import type { CoverFormat, GameIcon } from "./constants.ts";

/**
 * Cover art (docs/decisions/033): every game shows a 16:9 picture — the admin's upload,
 * re-encoded at the widths below, or art generated from the game's palette, icon and title. Each
 * address carries a hash of what it shows, so it can be cached for ever and a change gets a new one.
 */

/** What an admin may upload: the type is read from the bytes, never from the name. */
export const COVER_MAX_BYTES = 10 * 1024 * 1024;
export const COVER_UPLOAD_TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
/** Smaller pictures would be blurred on the game page's hero. */
export const COVER_MIN_SIZE = { width: 800, height: 450 } as const;

/** The widths pages choose from (a card at 360 px wide on a 1× screen up to the hero on a 2× screen). */
export const COVER_WIDTHS = [400, 800, 1200] as const;
export type CoverWidth = (typeof COVER_WIDTHS)[number];

export function coverHeight(width: number): number {
  return Math.round((width * 9) / 16);
}

/** The link-preview card social sites show (Open Graph, Twitter). */
export const SOCIAL_CARD = { width: 1200, height: 630 } as const;

/** The fields a game's cover is made from. */
export interface CoverSubject {
  slug: string;
  title: string;
  icon: string;
  coverHash: string | null;
}

/** What a `<picture>` needs: either encoded sources with a srcset each, or one SVG. */
export type CoverImage =
  | { kind: "upload"; avif: string; webp: string; src: string; width: number; height: number }
  | { kind: "art"; src: string; width: number; height: number };

/** Raised when the drawing of the generated art changes, so browsers fetch the new one. */
const ART_REVISION = "1";

/** FNV-1a, twice with different offsets: a short, stable name for a game's art (not a secret). */
function shortHash(text: string): string {
  const half = (offset: number) => {
    let hash = offset;
    for (let index = 0; index < text.length; index += 1) {
      hash ^= text.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash.toString(16).padStart(8, "0");
  };
  return half(0x811c9dc5) + half(0x01000193);
}

/** Changes whenever anything the generated art is drawn from changes. */
export function artVersion(game: Omit<CoverSubject, "coverHash">): string {
  return shortHash([ART_REVISION, game.slug, game.title, game.icon].join("\u0000"));
}

/** A number from the game's title and slug, for the art's choices that only need to differ between games. */
export function artSeed(game: Pick<CoverSubject, "slug" | "title">): number {
  return Number.parseInt(shortHash(`${game.slug}\u0000${game.title}`).slice(0, 8), 16);
}

export function uploadedCoverPath(hash: string, format: CoverFormat, width: number): string {
  return `/covers/${hash}-${width}.${format === "jpeg" ? "jpg" : format}`;
}

export function coverImage(game: CoverSubject): CoverImage {
  const [, middle, largest] = COVER_WIDTHS;
  if (!game.coverHash) {
    return { kind: "art", src: `/covers/art/${game.slug}-${artVersion(game)}.svg`, width: largest, height: coverHeight(largest) };
  }
  const hash = game.coverHash;
  const srcSet = (format: CoverFormat) => COVER_WIDTHS.map((width) => `${uploadedCoverPath(hash, format, width)} ${width}w`).join(", ");
  return {
    kind: "upload",
    avif: srcSet("avif"),
    webp: srcSet("webp"),
    src: uploadedCoverPath(hash, "webp", middle),
    width: largest,
    height: coverHeight(largest),
  };
}

/** The game's link-preview card: from its upload, or from its generated art. */
export function socialCardPath(game: CoverSubject): string {
  return `/covers/og/${game.slug}-${game.coverHash ?? artVersion(game)}.jpg`;
}

const HASH = "[0-9a-f]{16,64}";
const SLUG = "[a-z0-9-]+";

/** `<hash>-<width>.<avif|webp|jpg>`, or nothing for any other name. */
export function parseUploadedCoverFile(file: string): { hash: string; width: number; format: CoverFormat } | undefined {
  const match = new RegExp(`^(${HASH})-(\\d{3,4})\\.(avif|webp|jpg)$`).exec(file);
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  return { hash: match[1], width: Number(match[2]), format: match[3] === "jpg" ? "jpeg" : (match[3] as CoverFormat) };
}

/** `<slug>-<version>.<extension>` of the generated art and the link-preview card. */
export function parseVersionedFile(file: string, extension: "svg" | "jpg"): { slug: string; version: string } | undefined {
  const match = new RegExp(`^(${SLUG})-(${HASH})\\.${extension}$`).exec(file);
  if (!match?.[1] || !match[2]) return undefined;
  return { slug: match[1], version: match[2] };
}

/** The colours of a game's generated art: a hue per icon, turned a little by the game's own seed. */
export interface CoverPalette {
  /** The glow behind the emblem. */
  accent: string;
  /** The canvas at its edges. */
  deep: string;
}

/** Twelve icons, hues far enough apart that games with different icons never look alike. */
const ICON_HUES: Record<GameIcon, number> = {
  Crown: 352,
  Sword: 12,
  Trophy: 32,
  Star: 44,
  Sparkles: 168,
  Zap: 190,
  GraduationCap: 214,
  Shield: 232,
  Castle: 252,
  Wand2: 272,
  Users: 298,
  Heart: 326,
};

export function coverPalette(icon: string, seed: number): CoverPalette {
  const base = Object.hasOwn(ICON_HUES, icon) ? ICON_HUES[icon as GameIcon] : 282;
  const hue = (base + ((seed % 17) - 8) + 360) % 360;
  return { accent: hslToHex(hue, 0.5, 0.38), deep: hslToHex(hue, 0.45, 0.11) };
}

/** Hex, because every SVG renderer reads it (the link-preview card is drawn by librsvg, not a browser). */
function hslToHex(hue: number, saturation: number, lightness: number): string {
  const chroma = saturation * Math.min(lightness, 1 - lightness);
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12;
    const value = lightness - chroma * Math.max(-1, Math.min(k - 3, 9 - k, 1));
    return Math.round(value * 255)
      .toString(16)
      .padStart(2, "0");
  };
  return `#${channel(0)}${channel(8)}${channel(4)}`;
}
