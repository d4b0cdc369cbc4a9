/**
 * Reading server-rendered HTML in tests without a browser: the visible text, links, metadata
 * and JSON-LD blocks a crawler would see.
 */

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

export function decodeEntities(text: string) {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, code: string) => {
    if (code.startsWith("#x") || code.startsWith("#X")) return String.fromCodePoint(Number.parseInt(code.slice(2), 16));
    if (code.startsWith("#")) return String.fromCodePoint(Number(code.slice(1)));
    return ENTITIES[code.toLowerCase()] ?? entity;
  });
}

/** The text of the page body (scripts and styles dropped), whitespace collapsed. */
export function visibleText(html: string) {
  // React separates adjacent text with empty comments; they are not spaces.
  const body = html
    .replace(/<!--[\s\S]*?-->/g, "")
    .replace(/<script\b[\s\S]*?<\/script>/gi, " ")
    .replace(/<style\b[\s\S]*?<\/style>/gi, " ");
  return decodeEntities(body.replace(/<[^>]+>/g, " "))
    .replace(/\s+/g, " ")
    .trim();
}

export function title(html: string) {
  const match = /<title>([\s\S]*?)<\/title>/.exec(html);
  return match ? decodeEntities(match[1]!) : undefined;
}

function attribute(tag: string, name: string) {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? decodeEntities(match[1]!) : undefined;
}

/** content of <meta name=…> or <meta property=…>; every match when there are several. */
export function metaContents(html: string, key: string): string[] {
  return [...html.matchAll(/<meta\b[^>]*>/g)]
    .map((match) => match[0])
    .filter((tag) => attribute(tag, "name") === key || attribute(tag, "property") === key)
    .map((tag) => attribute(tag, "content") ?? "");
}

export function meta(html: string, key: string): string | undefined {
  return metaContents(html, key)[0];
}

export function canonicalUrls(html: string): string[] {
  return [...html.matchAll(/<link\b[^>]*rel="canonical"[^>]*>/g)].map((match) => attribute(match[0], "href") ?? "");
}

export type JsonLd = Record<string, unknown> & { "@type": string };

export function jsonLd(html: string): JsonLd[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(decodeEntities(match[1]!)) as JsonLd,
  );
}

export function jsonLdOfType(html: string, type: string): JsonLd | undefined {
  return jsonLd(html).find((block) => block["@type"] === type);
}

export interface Anchor {
  href: string;
  text: string;
  tag: string;
}

export function links(html: string): Anchor[] {
  return [...html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g)].map((match) => ({
    href: attribute(match[0], "href") ?? "",
    text: visibleText(match[2]!),
    tag: match[0],
  }));
}

export function hrefs(html: string): string[] {
  return links(html).map((link) => link.href);
}

/** The opening tags that carry data-testid="…". */
export function testIds(html: string, id: string): string[] {
  return [...html.matchAll(new RegExp(`<[a-z]+\\b[^>]*data-testid="${id}"[^>]*>`, "g"))].map((match) => match[0]);
}
