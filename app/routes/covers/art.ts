import { coverArtDocument } from "#app/components/cover-art-document.server.tsx";
import { madeOnce } from "#app/domain/covers.server.ts";
import { getActiveGame } from "#app/domain/games.server.ts";
import { currentCover, imageResponse, noCover } from "#app/http/covers.server.ts";
import { artVersion, coverImage, parseVersionedFile } from "#app/lib/covers.ts";
import type { Route } from "./+types/art";

/**
 * /covers/art/<slug>-<version>.svg: a game's generated cover. The version is a hash of what the
 * art is drawn from; an older one (a page cached before an edit) is sent to the current address.
 */
export async function loader({ params, request }: Route.LoaderArgs) {
  const file = parseVersionedFile(params.file, "svg");
  const game = file ? await getActiveGame(file.slug) : undefined;
  if (!file || !game) return noCover();
  if (file.version !== artVersion(game)) {
    const current = coverImage({ ...game, coverHash: null }).src;
    return currentCover(current);
  }
  const path = new URL(request.url).pathname;
  return imageResponse(await madeOnce(path, () => Buffer.from(coverArtDocument(game))), "image/svg+xml");
}
