import { COVER_MAX_BYTES } from "../lib/covers.ts";

/** The largest request body any route reads (docs/decisions/003). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/** The one route that takes more: a cover picture (docs/decisions/033). */
const COVER_UPLOAD_PATH = /^\/api\/admin\/games\/[^/]+\/cover$/;

/** A character card to import: a PNG picture with the card inside (app/domain/character-cards.server.ts). */
const CARD_IMPORT_PATH = "/create/import";
/** The largest card picture, and room for the form around it. */
const CARD_MAX_BYTES = 8 * 1024 * 1024 + 64 * 1024;

/** The largest body a request to this path may declare. */
export function maxRequestBodyBytes(path: string): number {
  if (path === CARD_IMPORT_PATH) return CARD_MAX_BYTES;
  return COVER_UPLOAD_PATH.test(path) ? COVER_MAX_BYTES : MAX_REQUEST_BODY_BYTES;
}
