import { COVER_MAX_BYTES } from "../lib/covers.ts";

/** The largest request body any route reads (docs/decisions/003). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/** The routes that take more: an admin's cover picture (docs/decisions/033). */
const COVER_UPLOAD_PATH = /^\/api\/admin\/games\/[^/]+\/cover$/;

/** A creator's cover for their world (issue 36): the picture, and room for the form around it. */
const WORLD_COVER_PATH = /^\/create\/[^/]+\/cover$/;
const WORLD_COVER_MAX_BYTES = COVER_MAX_BYTES + 64 * 1024;

/** A character card to import: a PNG picture with the card inside (app/domain/character-cards.server.ts). */
const CARD_IMPORT_PATH = "/create/import";
/** The largest card picture, and room for the form around it. */
const CARD_MAX_BYTES = 8 * 1024 * 1024 + 64 * 1024;

/** The largest body a request to this path may declare. */
export function maxRequestBodyBytes(path: string): number {
  if (path === CARD_IMPORT_PATH) return CARD_MAX_BYTES;
  if (WORLD_COVER_PATH.test(path)) return WORLD_COVER_MAX_BYTES;
  return COVER_UPLOAD_PATH.test(path) ? COVER_MAX_BYTES : MAX_REQUEST_BODY_BYTES;
}
