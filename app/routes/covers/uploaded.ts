import { readCoverVariant } from "#app/domain/covers.server.ts";
import { imageResponse, noCover } from "#app/http/covers.server.ts";
import { parseUploadedCoverFile } from "#app/lib/covers.ts";
import type { Route } from "./+types/uploaded";

const TYPES = { avif: "image/avif", webp: "image/webp", jpeg: "image/jpeg" } as const;

/** /covers/<hash>-<width>.<avif|webp|jpg>: one re-encoded size of an uploaded cover. */
export async function loader({ params }: Route.LoaderArgs) {
  const file = parseUploadedCoverFile(params.file);
  const bytes = file ? await readCoverVariant(file.hash, file.format, file.width) : undefined;
  if (!file || !bytes) return noCover();
  return imageResponse(bytes, TYPES[file.format]);
}
