import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cacheForVisitors, VISITOR_CACHE_HEADER, VISITOR_CACHE_QUERY_HEADER, visitorQuery } from "./visitor-cache.ts";

const APP = path.resolve(import.meta.dirname, "..");
/** Ways a module could read its address's query string other than through a visitorQuery declaration. */
const QUERY_READ = /\bsearchParams\b|\buseSearchParams\b|\blocation\.search\b|useLocation\(\)\.search\b|URL\([^)]*\)\.search\b/;

/** The route modules whose pages are kept for visitors, and the document every page is rendered in. */
function keptPageModules() {
  const routes = readdirSync(path.join(APP, "routes"))
    .filter((file) => file.endsWith(".tsx"))
    .map((file) => path.join("routes", file))
    .filter((file) => readFileSync(path.join(APP, file), "utf8").includes("cacheForVisitors("));
  return ["root.tsx", ...routes].map((file) => ({ file, source: readFileSync(path.join(APP, file), "utf8") }));
}

describe("the query a kept page reads", () => {
  it("is read only through the route's declaration, which its visitor-cache headers name (docs/decisions/042)", () => {
    const modules = keptPageModules();
    expect(modules.map(({ file }) => file)).toContain("routes/games.tsx");
    const readingOtherwise = modules.filter(({ source }) => QUERY_READ.test(source)).map(({ file }) => file);
    expect(readingOtherwise).toEqual([]);
    const declaredButNotNamed = modules
      .filter(({ source }) => source.includes("visitorQuery(") && !/cacheForVisitors\(\{[^}]*\bquery\b/.test(source))
      .map(({ file }) => file);
    expect(declaredButNotNamed).toEqual([]);
  });

  it("gives a loader the declared parameters and nothing else", () => {
    const query = visitorQuery("difficulty", "search");
    const request = new Request("http://site.test/games?search=jade&utm_source=mail&search=silk");
    expect(query.read(request)).toEqual({ difficulty: null, search: "jade" });
  });

  it("names the declared parameters in the headers that ask the server to keep the page", () => {
    expect(cacheForVisitors()).toEqual({ [VISITOR_CACHE_HEADER]: "600" });
    expect(cacheForVisitors({ seconds: 60, query: visitorQuery("difficulty", "search") })).toEqual({
      [VISITOR_CACHE_HEADER]: "60",
      [VISITOR_CACHE_QUERY_HEADER]: "difficulty,search",
    });
  });
});
