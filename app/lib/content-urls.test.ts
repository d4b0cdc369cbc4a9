import { describe, expect, it } from "vitest";
import { contentLink, siteImagePath } from "./content-urls.ts";

describe("siteImagePath", () => {
  it("keeps paths this site serves", () => {
    expect(siteImagePath("/logo.png")).toBe("/logo.png");
    expect(siteImagePath("/images/map.png?v=2#top")).toBe("/images/map.png?v=2#top");
    expect(siteImagePath("/images/../logo.png")).toBe("/logo.png");
  });

  it.each([
    ["an absolute https URL", "https://tracker.example/pixel.png"],
    ["an absolute http URL", "http://tracker.example/pixel.png"],
    ["a protocol-relative URL", "//tracker.example/pixel.png"],
    ["a backslash the browser reads as a slash", "/\\tracker.example/pixel.png"],
    ["a tab the browser drops", "/\t/tracker.example/pixel.png"],
    ["a scheme-relative http URL", "http:/tracker.example/pixel.png"],
    ["a data: URL", "data:image/png;base64,iVBORw0KGgo="],
    ["a path relative to the page", "images/map.png"],
    ["a leading space", " //tracker.example/pixel.png"],
    ["nothing", ""],
  ])("refuses %s", (_name, src) => {
    expect(siteImagePath(src)).toBeUndefined();
  });
});

describe("contentLink", () => {
  it("keeps links within the site as written", () => {
    expect(contentLink("/guides")).toEqual({ href: "/guides", external: false });
    expect(contentLink("#user-content-fn-1")).toEqual({ href: "#user-content-fn-1", external: false });
    expect(contentLink("guides/getting-started")).toEqual({ href: "guides/getting-started", external: false });
  });

  it("marks links to other sites external", () => {
    expect(contentLink("https://example.com/page")).toEqual({ href: "https://example.com/page", external: true });
    expect(contentLink("HTTP://Example.com")).toEqual({ href: "http://example.com/", external: true });
  });

  it("turns protocol-relative links into the absolute https links they really are", () => {
    expect(contentLink("//evil.example/x")).toEqual({ href: "https://evil.example/x", external: true });
    expect(contentLink("/\\evil.example/x")).toEqual({ href: "https://evil.example/x", external: true });
    expect(contentLink(" //evil.example/x")).toEqual({ href: "https://evil.example/x", external: true });
  });

  it("leaves other schemes the sanitiser allows alone", () => {
    expect(contentLink("mailto:support@example.com")).toEqual({ href: "mailto:support@example.com", external: false });
  });
});
