import { describe, expect, it } from "vitest";
import { articleJsonLd, breadcrumbJsonLd, gameCrumbs, metaDescription, pageMeta, videoGameJsonLd, webSiteJsonLd } from "./seo.ts";

const site = { name: "Play as Empress", supportEmail: "support@example.com", publicUrl: "https://play.example" };

describe("metaDescription", () => {
  it("keeps a description of up to 155 characters as it is", () => {
    const text = "a".repeat(155);
    expect(metaDescription(text)).toBe(text);
  });

  it("cuts a longer one to 152 characters plus '...'", () => {
    const text = `${"b".repeat(152)}cdef`;
    const cut = metaDescription(text);
    expect(cut).toBe(`${"b".repeat(152)}...`);
    expect(cut).toHaveLength(155);
  });

  it("collapses whitespace first", () => {
    expect(metaDescription("  Rule \n the   court ")).toBe("Rule the court");
  });
});

describe("pageMeta", () => {
  const meta = pageMeta(site, {
    title: "Games",
    description: "x".repeat(200),
    path: "/games?difficulty=beginner",
    jsonLd: [webSiteJsonLd(site)],
  });
  const find = (key: string, value: string) => meta.find((descriptor) => (descriptor as Record<string, unknown>)[key] === value);

  it("gives the title, the cut description and the canonical URL from PUBLIC_URL", () => {
    expect(meta).toContainEqual({ title: "Games | Play as Empress" });
    expect(find("name", "description")).toEqual({ name: "description", content: `${"x".repeat(152)}...` });
    expect(meta).toContainEqual({ tagName: "link", rel: "canonical", href: "https://play.example/games?difficulty=beginner" });
  });

  it("gives Open Graph and Twitter cards with an absolute image", () => {
    expect(find("property", "og:title")).toMatchObject({ content: "Games | Play as Empress" });
    expect(find("property", "og:url")).toMatchObject({ content: "https://play.example/games?difficulty=beginner" });
    expect(find("property", "og:image")).toMatchObject({ content: "https://play.example/og-image.jpg" });
    expect(find("name", "twitter:card")).toMatchObject({ content: "summary_large_image" });
    expect(find("name", "twitter:description")).toMatchObject({ content: `${"x".repeat(152)}...` });
  });

  it("always carries the Organization, then the page's own structured data", () => {
    const blocks = meta.flatMap((descriptor) => ("script:ld+json" in descriptor ? [descriptor["script:ld+json"]] : []));
    expect(blocks.map((block) => (block as { "@type": string })["@type"])).toEqual(["Organization", "WebSite"]);
    expect(blocks[0]).toMatchObject({ name: "Play as Empress", url: "https://play.example/", email: "support@example.com" });
  });

  it("marks search results noindex", () => {
    expect(pageMeta(site, { title: "t", description: "d", path: "/games", noindex: true })).toContainEqual({
      name: "robots",
      content: "noindex, follow",
    });
  });
});

describe("structured data", () => {
  it("offers the site search at /games?search={search_term_string}", () => {
    expect(webSiteJsonLd(site).potentialAction).toEqual({
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: "https://play.example/games?search={search_term_string}" },
      "query-input": "required name=search_term_string",
    });
  });

  it("lists Home / Games / title / Strategy Guide or Pro Tips as breadcrumbs", () => {
    const game = { slug: "empress-simulator", title: "Empress Simulator" };
    expect(gameCrumbs(game).map((crumb) => crumb.name)).toEqual(["Home", "Games", "Empress Simulator"]);
    expect(gameCrumbs(game, "guide").at(-1)).toEqual({ name: "Strategy Guide", path: "/game/empress-simulator/guide" });
    expect(gameCrumbs(game, "tips").at(-1)).toEqual({ name: "Pro Tips", path: "/game/empress-simulator/tips" });
    expect(breadcrumbJsonLd(site, gameCrumbs(game)).itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: "https://play.example/" },
      { "@type": "ListItem", position: 2, name: "Games", item: "https://play.example/games" },
      { "@type": "ListItem", position: 3, name: "Empress Simulator", item: "https://play.example/game/empress-simulator" },
    ]);
  });

  it("describes a game as a VideoGame with a free offer and no ratings", () => {
    const data = videoGameJsonLd(site, {
      slug: "empress-simulator",
      title: "Empress Simulator",
      description: "Rule as regent.",
      category: "Strategy",
      difficulty: "Advanced",
    });
    expect(data).toMatchObject({ "@type": "VideoGame", name: "Empress Simulator", url: "https://play.example/game/empress-simulator" });
    expect(data.offers).toMatchObject({ "@type": "Offer", price: 0, priceCurrency: "USD" });
    expect(JSON.stringify(data)).not.toMatch(/aggregateRating|reviewRating|ratingValue/);
  });

  it("describes a blog post as an Article", () => {
    const data = articleJsonLd(site, {
      path: "/blog/a",
      title: "A",
      description: "About A",
      author: "The Court Scribe",
      publishedTime: "2025-05-06",
      section: "Strategy",
      tags: ["x", "y"],
    });
    expect(data).toMatchObject({ "@type": "Article", headline: "A", datePublished: "2025-05-06", keywords: "x, y" });
    expect(data.author).toMatchObject({ name: "The Court Scribe" });
  });
});
