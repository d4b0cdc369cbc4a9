/**
 * Pages that are the same for every signed-out visitor may be kept by the server
 * (server/page-cache.ts): the route says so with this header, which never leaves the server.
 * A kept page is served only while the public content version it was rendered at is current, so
 * a change to games, content or guides shows on the very next request, on every instance; the
 * lifetime only bounds memory held by pages nobody asks for.
 */
export const VISITOR_CACHE_HEADER = "X-Visitor-Cache-Seconds";
/** The query parameters a kept page reads, comma-separated; never leaves the server either. */
export const VISITOR_CACHE_QUERY_HEADER = "X-Visitor-Cache-Query";
export const VISITOR_CACHE_SECONDS = 600;

/**
 * The query parameters a kept page reads, declared once by its route (docs/decisions/042). The
 * cache keeps one page per value of these and serves it whatever else the query string holds
 * (`?utm_source=…`), so its loader reads the query through `read`, which sees nothing else.
 */
export interface VisitorQuery<Name extends string> {
  readonly names: readonly Name[];
  /** The declared parameters of a request (their first value, as `URLSearchParams.get` gives it). */
  read(request: Request): Record<Name, string | null>;
}

export function visitorQuery<const Name extends string>(...names: Name[]): VisitorQuery<Name> {
  return {
    names,
    read(request) {
      const parameters = new URL(request.url).searchParams;
      return Object.fromEntries(names.map((name) => [name, parameters.get(name)])) as Record<Name, string | null>;
    },
  };
}

/** A route's `headers` export for pages that show only public content, with the query parameters they read. */
export function cacheForVisitors({ seconds = VISITOR_CACHE_SECONDS, query }: { seconds?: number; query?: VisitorQuery<string> } = {}): Record<
  string,
  string
> {
  const headers: Record<string, string> = { [VISITOR_CACHE_HEADER]: String(seconds) };
  if (query?.names.length) headers[VISITOR_CACHE_QUERY_HEADER] = query.names.join(",");
  return headers;
}
