import { renderToStaticMarkup } from "react-dom/server";
import { Markdown } from "./markdown.tsx";

/** Bound on the characters kept (sources + results), about 16 MB. */
const MAX_CACHED_CHARACTERS = 8_000_000;
const rendered = new Map<string, string>();
let cachedCharacters = 0;

/**
 * Rich content rendered on the server by THE sanitising renderer (markdown.tsx) into HTML, so
 * public pages ship the result instead of the Markdown toolchain's JavaScript. Content changes
 * rarely and is read often, so results are kept (bounded, least recently used dropped first).
 */
export function renderMarkdown(source: string, { headingOffset = 0 }: { headingOffset?: number } = {}): string {
  const key = `${headingOffset}:${source}`;
  const cached = rendered.get(key);
  if (cached !== undefined) {
    rendered.delete(key);
    rendered.set(key, cached);
    return cached;
  }
  // Only admins and the release write what is rendered here, so it may show the site's own images.
  const html = renderToStaticMarkup(
    <Markdown headingOffset={headingOffset} images="site">
      {source}
    </Markdown>,
  );
  rendered.set(key, html);
  cachedCharacters += key.length + html.length;
  for (const [oldKey, oldHtml] of rendered) {
    if (cachedCharacters <= MAX_CACHED_CHARACTERS) break;
    rendered.delete(oldKey);
    cachedCharacters -= oldKey.length + oldHtml.length;
  }
  return html;
}
