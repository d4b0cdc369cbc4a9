import type { ReactNode } from "react";
import { artSeed, coverHeight, coverPalette, COVER_WIDTHS } from "#app/lib/covers.ts";
import { GameIconSvg } from "./game-icon.tsx";

/**
 * A game's generated cover (docs/decisions/033): an SVG document drawn only from the game's
 * palette (its icon's hue), icon and title, in LOOK.md's language — ink, a glow of the game's own colour,
 * a gold-ringed emblem, the title in the display face inside a thin gold frame. The same game
 * always gets the same picture; the seed picks the pattern and the scattered stars.
 */

const WIDTH = COVER_WIDTHS[COVER_WIDTHS.length - 1] ?? 1200;
const HEIGHT = coverHeight(WIDTH);
const CENTER_X = WIDTH / 2;
const EMBLEM_Y = 250;
const EMBLEM_RADIUS = 92;
const ICON_SIZE = 96;
export const TITLE_BOX = { centerX: CENTER_X, centerY: 478, width: 980, maxSize: 104 } as const;

const INK = "#120d1c";
const GOLD = "#d8ae5e";
const PARCHMENT = "#f4ede1";

export interface CoverArtProps {
  title: string;
  icon: string;
  slug: string;
  /** The title as outlines (cover-lettering.server.ts), or undefined to set it as text. */
  lettering?: { lines: string[]; fontSize: number };
}

/** A small deterministic generator (mulberry32), so the same game always gets the same stars. */
function randomFrom(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function Rays() {
  return (
    <g stroke={GOLD} strokeOpacity={0.09} strokeWidth={1.5}>
      {Array.from({ length: 36 }, (_, index) => {
        const angle = (index / 36) * Math.PI * 2;
        return (
          <line
            key={index}
            x1={Math.round(CENTER_X + Math.cos(angle) * 130)}
            y1={Math.round(EMBLEM_Y + Math.sin(angle) * 130)}
            x2={Math.round(CENTER_X + Math.cos(angle) * 900)}
            y2={Math.round(EMBLEM_Y + Math.sin(angle) * 900)}
          />
        );
      })}
    </g>
  );
}

function Rings() {
  return (
    <g fill="none" stroke={GOLD} strokeWidth={1.5}>
      {[150, 215, 290, 375, 470, 575].map((radius, index) => (
        <circle key={radius} cx={CENTER_X} cy={EMBLEM_Y} r={radius} strokeOpacity={0.14 - index * 0.018} />
      ))}
    </g>
  );
}

function Lattice() {
  const step = 90;
  const lines: ReactNode[] = [];
  for (let offset = -HEIGHT; offset < WIDTH + HEIGHT; offset += step) {
    lines.push(<line key={`a${offset}`} x1={offset} y1={0} x2={offset + HEIGHT} y2={HEIGHT} />);
    lines.push(<line key={`b${offset}`} x1={offset} y1={HEIGHT} x2={offset + HEIGHT} y2={0} />);
  }
  return (
    <g stroke={GOLD} strokeOpacity={0.06} strokeWidth={1.5}>
      {lines}
    </g>
  );
}

function Pattern({ seed }: { seed: number }) {
  const choice = (seed >>> 8) % 3;
  return choice === 0 ? <Rays /> : choice === 1 ? <Rings /> : <Lattice />;
}

function Stars({ random }: { random: () => number }) {
  return (
    <g fill={PARCHMENT}>
      {Array.from({ length: 46 }, (_, index) => {
        const x = 40 + random() * (WIDTH - 80);
        const y = 40 + random() * (HEIGHT - 80);
        return (
          <circle
            key={index}
            cx={x.toFixed(0)}
            cy={y.toFixed(0)}
            r={(0.8 + random() * 1.8).toFixed(1)}
            fillOpacity={(0.18 + random() * 0.5).toFixed(1)}
          />
        );
      })}
    </g>
  );
}

function Ornament({ y }: { y: number }) {
  return (
    <g>
      <rect x={CENTER_X - 170} y={y - 1} width={340} height={2} fill="url(#cover-line)" />
      <path d={`M${CENTER_X} ${y - 7}l7 7-7 7-7-7z`} fill={GOLD} />
    </g>
  );
}

function Title({ title, lettering }: Pick<CoverArtProps, "title" | "lettering">) {
  if (lettering) {
    return (
      <g fill={PARCHMENT}>
        {lettering.lines.map((line, index) => (
          <path key={index} d={line} />
        ))}
      </g>
    );
  }
  return (
    <text
      x={CENTER_X}
      y={TITLE_BOX.centerY + 28}
      textAnchor="middle"
      fontFamily="'Cormorant Garamond', Georgia, serif"
      fontWeight={700}
      fontSize={84}
      fill={PARCHMENT}
      textLength={title.length > 20 ? TITLE_BOX.width : undefined}
      lengthAdjust="spacingAndGlyphs"
    >
      {title}
    </text>
  );
}

export function CoverArt({ title, icon, slug, lettering }: CoverArtProps) {
  const seed = artSeed({ slug, title });
  const palette = coverPalette(icon, seed);
  const random = randomFrom(seed);
  const titleBottom =
    TITLE_BOX.centerY + (lettering && lettering.lines.length > 1 ? lettering.fontSize * 1.05 : lettering ? lettering.fontSize * 0.5 : 40);
  return (
    <svg xmlns="http://www.w3.org/2000/svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} role="img" aria-label={title}>
      <title>{title}</title>
      <defs>
        <radialGradient id="cover-glow" cx={CENTER_X} cy={EMBLEM_Y + 40} r={760} gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor={palette.accent} stopOpacity={0.85} />
          <stop offset="0.45" stopColor={palette.deep} />
          <stop offset="1" stopColor={INK} />
        </radialGradient>
        <linearGradient id="cover-line" x1="0" x2="1" y1="0" y2="0">
          <stop offset="0" stopColor={GOLD} stopOpacity={0} />
          <stop offset="0.5" stopColor={GOLD} />
          <stop offset="1" stopColor={GOLD} stopOpacity={0} />
        </linearGradient>
      </defs>
      <rect width={WIDTH} height={HEIGHT} fill="url(#cover-glow)" />
      <Pattern seed={seed} />
      <Stars random={random} />
      <rect x={28} y={28} width={WIDTH - 56} height={HEIGHT - 56} rx={18} fill="none" stroke={GOLD} strokeOpacity={0.4} strokeWidth={2} />
      <circle cx={CENTER_X} cy={EMBLEM_Y} r={EMBLEM_RADIUS + 14} fill="none" stroke={GOLD} strokeOpacity={0.35} strokeWidth={1.5} />
      <circle cx={CENTER_X} cy={EMBLEM_Y} r={EMBLEM_RADIUS} fill={INK} stroke={GOLD} strokeWidth={3} />
      <GameIconSvg
        name={icon}
        x={CENTER_X - ICON_SIZE / 2}
        y={EMBLEM_Y - ICON_SIZE / 2}
        width={ICON_SIZE}
        height={ICON_SIZE}
        color={GOLD}
        strokeWidth={1.5}
        aria-hidden
      />
      <Ornament y={372} />
      <Title title={title} lettering={lettering} />
      <Ornament y={Math.min(titleBottom + 44, HEIGHT - 60)} />
    </svg>
  );
}
