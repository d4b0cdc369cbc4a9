import { expect } from "vitest";
import { visibleText } from "./html.ts";
import { serverTest } from "./fixtures.ts";

/** The public pages as a crawler reads them: server HTML only (tests/integration/public-*.test.ts). */

export const publicHtmlTest = serverTest
  /** The page at `path`, which must answer `expectedStatus` with HTML: the HTML and its visible text. */
  .extend("page", { scope: "file" }, ({ server }) => async (path: string, expectedStatus = 200) => {
    const response = await server.fetch(path);
    expect(response.status, `${path} answers ${expectedStatus}`).toBe(expectedStatus);
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    return { html, text: visibleText(html) };
  })
  /** Where `path` redirects to (a 302), as a path. */
  .extend("redirectOf", { scope: "file" }, ({ server }) => async (path: string) => {
    const response = await server.fetch(path);
    expect(response.status, `${path} redirects`).toBe(302);
    return new URL(response.headers.get("location") ?? "", server.url).pathname;
  });

/** Opening tags of one element name that contain an attribute, e.g. tagsWith(html, "input", 'name="q"'). */
export function tagsWith(html: string, element: string, attribute: string) {
  return [...html.matchAll(new RegExp(`<${element}\\b[^>]*>`, "g"))].map((match) => match[0]).filter((tag) => tag.includes(attribute));
}

/** The game cards of a list page, in order, as slugs. */
export function cardSlugs(html: string) {
  return html
    .split('data-testid="game-card"')
    .slice(1)
    .map((card) => /href="\/game\/([a-z0-9-]+)"/.exec(card)?.[1]);
}

export const PUBLIC_PAGES = [
  "/",
  "/games",
  "/games/category/beginner",
  "/game/empress-simulator",
  "/game/empress-simulator/guide",
  "/game/empress-simulator/tips",
  "/guides",
  "/guides/getting-started",
  "/blog",
  "/blog/how-to-play-an-empress-court-intrigue",
  "/about",
  "/contact",
  "/privacy",
  "/terms",
];
