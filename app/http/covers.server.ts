import { COVER_MAX_BYTES } from "../lib/covers.ts";
import { CoverTooLargeError } from "../domain/covers.server.ts";
import { RequestError } from "./errors.server.ts";

/** Addresses named by a hash of what they hold: a browser or a CDN may keep them for a year unasked. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** Only an SVG of our own making is served, and even so it may run nothing and load nothing. */
export const SVG_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * An upload's bytes, refused as soon as it is known to be too large: by its declared length, and
 * by counting what arrives (a client may declare less than it sends).
 */
export async function readUpload(request: Request): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > COVER_MAX_BYTES) throw new CoverTooLargeError();
  if (!request.body) throw new RequestError("invalid_input", "Choose a picture to upload: the request has no file.");
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > COVER_MAX_BYTES) {
      await reader.cancel();
      throw new CoverTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, received);
}

/** A picture answer, with the headers every cover address shares. */
export function imageResponse(bytes: Uint8Array, type: string): Response {
  const headers = new Headers({ "Content-Type": type, "Cache-Control": IMMUTABLE });
  if (type === "image/svg+xml") headers.set("Content-Security-Policy", SVG_SECURITY_POLICY);
  return new Response(new Uint8Array(bytes), { headers });
}

/** No picture at this address (an unknown game, a removed upload): not cached, it may exist later. */
export function noCover(): Response {
  return new Response("No cover has this address.", { status: 404, headers: { "Cache-Control": "no-store" } });
}

/** An older version's address (a page cached before an edit) goes to the current picture. */
export function currentCover(location: string): Response {
  return new Response(null, { status: 302, headers: { Location: location, "Cache-Control": "no-store" } });
}
