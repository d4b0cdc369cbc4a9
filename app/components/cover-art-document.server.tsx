import { renderToStaticMarkup } from "react-dom/server";
import { letterTitle } from "#app/domain/cover-lettering.server.ts";
import type { CoverSubject } from "#app/lib/covers.ts";
import { CoverArt, TITLE_BOX } from "./cover-art.tsx";

/** A game's generated cover as a standalone SVG document (React escapes the title). */
export function coverArtDocument(game: Omit<CoverSubject, "coverHash">): string {
  const lettering = letterTitle(game.title, TITLE_BOX);
  return `<?xml version="1.0" encoding="UTF-8"?>${renderToStaticMarkup(
    <CoverArt title={game.title} icon={game.icon} slug={game.slug} lettering={lettering} />,
  )}`;
}
