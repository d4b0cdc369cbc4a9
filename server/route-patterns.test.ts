import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { RoutePatterns, UNMATCHED_ROUTE } from "./route-patterns.ts";

const routes = new RoutePatterns([
  "/",
  "/games",
  "/games/category/:category?",
  "/play/:slug",
  "/play/:slug/:storyId",
  "/api/stories/:storyId/export",
  "/api/stories/:storyId/:kind",
  "/api/auth/*",
  "/assets/*",
  "/favicon.svg",
  "*",
]);

describe("route patterns", () => {
  it("name a request by the pattern of the route that answers it", () => {
    expect(routes.match("/")).toBe("/");
    expect(routes.match("/games")).toBe("/games");
    expect(routes.match("/GAMES/")).toBe("/games");
    expect(routes.match("/play/lantern-harbor")).toBe("/play/:slug");
    expect(routes.match("/play/lantern-harbor/4f9a")).toBe("/play/:slug/:storyId");
    expect(routes.match("/favicon.svg")).toBe("/favicon.svg");
  });

  it("prefer a literal segment to a parameter, and a parameter to a splat", () => {
    expect(routes.match("/api/stories/4f9a/export")).toBe("/api/stories/:storyId/export");
    expect(routes.match("/api/stories/4f9a/retry")).toBe("/api/stories/:storyId/:kind");
    expect(routes.match("/api/auth/sign-in/email")).toBe("/api/auth/*");
    expect(routes.match("/api/auth")).toBe("/api/auth/*");
    expect(routes.match("/assets/entry-Ab12.js")).toBe("/assets/*");
  });

  it("match an optional segment present or absent, under the route's own pattern", () => {
    expect(routes.match("/games/category")).toBe("/games/category/:category?");
    expect(routes.match("/games/category/romance")).toBe("/games/category/:category?");
  });

  it("give every path no route of ours answers one label, the catch-all 404 page included", () => {
    const crawled = ["/wp-login.php", "/play", "/play/a/b/c", "/games/x", "/.env", `/${"x".repeat(5000)}`, "/api/stories/1/2/3"];
    expect(new Set(crawled.map((path) => routes.match(path)))).toEqual(new Set([UNMATCHED_ROUTE]));
  });

  it("read the full paths of a React Router build, index routes and nested ones included", () => {
    const build = {
      root: { id: "root", path: "" },
      "routes/home": { id: "routes/home", parentId: "root", index: true },
      "routes/games": { id: "routes/games", parentId: "root", path: "games" },
      "routes/game": { id: "routes/game", parentId: "routes/games", path: ":slug" },
      "routes/not-found": { id: "routes/not-found", parentId: "root", path: "*" },
    } as unknown as ServerBuild["routes"];
    expect(RoutePatterns.fromBuild(build).sort()).toEqual(["/", "/games", "/games/:slug", "/*"].sort());
  });
});
