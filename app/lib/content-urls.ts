/**
 * Where the URLs of rich content (admin Markdown, Game Master replies) may point. Both checks
 * resolve a URL the way the browser will (WHATWG URL: `//host`, `/\host` and tabs or spaces
 * around it all count), against a stand-in for the page's origin: only whether a URL leaves
 * the site matters, not the page it sits on.
 */
const SITE_ORIGIN = "https://site.invalid";

function resolve(url: string): URL | undefined {
  // Not URL.parse: the chat renders in browsers that predate it.
  try {
    return new URL(url, `${SITE_ORIGIN}/`);
  } catch {
    return undefined;
  }
}

/**
 * The path of an image this site serves ("/images/map.png"), rewritten as the browser will read
 * it; undefined for any other source. An image loads by itself, so one from elsewhere tells that
 * server who reads the page, and its URL can carry what the page says. Only root-relative paths
 * count: a path relative to the page would point somewhere different on every page.
 */
export function siteImagePath(src: string): string | undefined {
  const url = resolve(src);
  if (!src.startsWith("/") || url?.origin !== SITE_ORIGIN) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}

export interface ContentLink {
  href: string;
  /** Leaves the site: opened in a new tab, without the referrer or the page's window. */
  external: boolean;
}

/**
 * A link as the page should write it. A protocol-relative link (`//host/x`, or `/\host/x`) reads
 * like a path on this site but opens another one; it becomes the absolute https link it really
 * is, marked external like any other, so nobody is misled and a writer's link still works.
 */
export function contentLink(href: string): ContentLink {
  const url = resolve(href);
  if (!url || url.origin === SITE_ORIGIN || (url.protocol !== "https:" && url.protocol !== "http:")) {
    return { href, external: false };
  }
  return { href: url.href, external: true };
}
