import { COVER_MAX_BYTES } from "../lib/covers.ts";

/** The largest request body any route reads (docs/decisions/003). */
export const MAX_REQUEST_BODY_BYTES = 1024 * 1024;

/** The one route that takes more: a cover picture (docs/decisions/033). */
const COVER_UPLOAD_PATH = /^\/api\/admin\/games\/[^/]+\/cover$/;

/** The largest body a request to this path may declare. */
export function maxRequestBodyBytes(path: string): number {
  return COVER_UPLOAD_PATH.test(path) ? COVER_MAX_BYTES : MAX_REQUEST_BODY_BYTES;
}
