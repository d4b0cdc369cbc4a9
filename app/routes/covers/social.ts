import { coverArtDocument } from "#app/components/cover-art-document.server.tsx";
import { madeOnce, readCoverVariant, socialCardFromArt } from "#app/domain/covers.server.ts";
import { getActiveGame } from "#app/domain/games.server.ts";
import { currentCover, imageResponse, noCover } from "#app/http/covers.server.ts";
import { parseVersionedFile, SOCIAL_CARD, socialCardPath } from "#app/lib/covers.ts";
import type { Route } from "./+types/social";

/**
 * /covers/og/<slug>-<version>.jpg: a game's 1200×630 link-preview card, from its upload or its
 * generated art. Social sites read JPEG or PNG, not SVG or AVIF.
 */
export async function loader({ params }: Route.LoaderArgs) {
  const file = parseVersionedFile(params.file, "jpg");
  const game = file ? await getActiveGame(file.slug) : undefined;
  if (!file || !game) return noCover();
  const current = socialCardPath(game);
  if (!current.endsWith(`/${params.file}`)) return currentCover(current);
  const card = game.coverHash
    ? await readCoverVariant(game.coverHash, "jpeg", SOCIAL_CARD.width)
    : await madeOnce(current, () => socialCardFromArt(coverArtDocument(game)));
  if (!card) return noCover();
  return imageResponse(card, "image/jpeg");
}
