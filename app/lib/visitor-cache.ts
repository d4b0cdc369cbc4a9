/**
 * Pages that are the same for every signed-out visitor may be kept by the server
 * (server/page-cache.ts): the route says so with this header, which never leaves the server.
 * A kept page is served only while the public content version it was rendered at is current, so
 * a change to games, content or guides shows on the very next request, on every instance; the
 * lifetime only bounds memory held by pages nobody asks for.
 */
export const VISITOR_CACHE_HEADER = "X-Visitor-Cache-Seconds";
export const VISITOR_CACHE_SECONDS = 600;

/** A route's `headers` export for pages that show only public content. */
export function cacheForVisitors(seconds = VISITOR_CACHE_SECONDS): Record<string, string> {
  return { [VISITOR_CACHE_HEADER]: String(seconds) };
}
