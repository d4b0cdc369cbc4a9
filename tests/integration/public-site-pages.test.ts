import { describe, expect } from "vitest";
import { hrefs, jsonLdOfType, links, meta, metaContents, visibleText } from "#tests/helpers/html.ts";
import { publicHtmlTest as test, tagsWith } from "#tests/helpers/public-html.ts";

/**
 * The rest of the public site as a crawler sees it: server HTML only — guides, the blog, about,
 * contact and the legal pages, the sitemap and robots.txt. The catalogue's pages are
 * public-pages.test.ts. These tests only read the seeded site.
 */

describe("/guides", () => {
  test("is SPEC's hub plus the published library guides", async ({ page }) => {
    const { html, text } = await page("/guides");
    expect(text).toContain("Getting Started");
    for (const [slug, readTime] of [
      ["getting-started", "15 min read"],
      ["ai-storytelling-tips", "20 min read"],
      ["best-practices", "12 min read"],
    ]) {
      const card = html.slice(html.indexOf(`href="/guides/${slug}"`));
      expect(visibleText(card.slice(0, card.indexOf("</article>")))).toContain(readTime);
    }
    const advanced = text.slice(text.indexOf("Advanced Strategies"), text.indexOf("Game-Specific Guides"));
    expect(advanced.match(/Coming Soon/g)).toHaveLength(2);
    expect(hrefs(html)).toEqual(
      expect.arrayContaining([
        "/game/empress-simulator/guide",
        "/game/matriarch-harem-simulator/guide",
        "/game/mary-sue-campus/guide",
        "/guides/writing-memorable-characters",
        "/games",
        "/about",
      ]),
    );
    const community = text.slice(text.indexOf("Community Wisdom"));
    for (const card of ["Player Stories", "Strategy Tips", "Challenges", "Hall of Fame"]) expect(community).toContain(card);
    expect(community.match(/Coming Soon/g)).toHaveLength(4);
  });

  test("shows a built-in guide with Continue Learning", async ({ page }) => {
    const { html, text } = await page("/guides/getting-started");
    expect(text).toContain("Getting Started: Your First Story on Play as Empress");
    expect(text).toContain("How a story works here");
    expect(links(html).find((link) => link.text === "Back to Guides")?.href).toBe("/guides");
    const more = text.slice(text.indexOf("Continue Learning"));
    expect(hrefs(html)).toEqual(expect.arrayContaining(["/guides/ai-storytelling-tips", "/guides/best-practices", "/games", "/guides"]));
    expect(more).not.toContain("Getting Started: Your First Story");
    expect(jsonLdOfType(html, "Article")).toMatchObject({ headline: "Getting Started: Your First Story on Play as Empress" });
  });

  test("shows a published guide of the guides table on its own page", async ({ page }) => {
    const { text } = await page("/guides/writing-memorable-characters");
    expect(text).toContain("Writing Memorable Characters: Give Your Hero a Voice");
    expect(text).toContain("Start with a want, a wound and a line");
  });

  test("sends an unknown guide back to /guides", async ({ redirectOf }) => {
    expect(await redirectOf("/guides/no-such-guide")).toBe("/guides");
  });
});

describe("/blog", () => {
  test("lists two featured articles and four more", async ({ page }) => {
    const { html, text } = await page("/blog");
    const featured = text.slice(text.indexOf("Featured Guides"), text.indexOf("All Articles"));
    expect(featured).toContain("How to Play an Empress: A Field Guide to Court Intrigue");
    expect(featured).toContain("Why AI Role-Play Is a New Kind of Story");
    const all = html.slice(html.indexOf("All Articles"));
    expect(hrefs(all).filter((href) => href.startsWith("/blog/"))).toHaveLength(4);
    expect(hrefs(html).filter((href) => href.startsWith("/blog/"))).toHaveLength(6);
  });

  test("shows one article with everything SPEC lists", async ({ page }) => {
    const { html, text } = await page("/blog/how-to-play-an-empress-court-intrigue");
    expect(/<h1[^>]*>How to Play an Empress: A Field Guide to Court Intrigue<\/h1>/.test(html)).toBe(true);
    expect(text).toContain("Strategy");
    expect(text).toContain("6 min read");
    expect(text).toContain("By The Court Scribe");
    expect(text).toContain("Share");
    expect(text).toContain("#court-intrigue");
    expect(links(html).find((link) => link.text === "Explore Games")?.href).toBe("/games");
    expect(jsonLdOfType(html, "Article")).toMatchObject({
      headline: "How to Play an Empress: A Field Guide to Court Intrigue",
      datePublished: "2025-05-06",
      author: { name: "The Court Scribe" },
    });
    expect(meta(html, "og:type")).toBe("article");
    expect(metaContents(html, "article:tag")).toEqual(["empress-simulator", "strategy", "court-intrigue"]);
  });

  test("shows each article's own text", async ({ page }) => {
    const first = await page("/blog/numbered-choices-vs-free-text");
    const second = await page("/blog/the-appeal-of-cultivation-stories");
    expect(first.text).toContain("Numbered Choices vs Free Text");
    expect(second.text).toContain("The Appeal of Cultivation Stories");
    expect(first.text).not.toContain("The Appeal of Cultivation Stories");
  });

  test("answers an unknown article with the 404 page", async ({ page }) => {
    const { html, text } = await page("/blog/no-such-article", 404);
    expect(text).toContain("Oops! Page not found");
    expect(meta(html, "robots")).toBe("noindex");
  });
});

describe("about, contact and the legal pages", () => {
  test("/about explains the mission and the technology", async ({ page }) => {
    const { text } = await page("/about");
    expect(text).toContain("Our Mission");
    expect(text).toContain("How It Works");
  });

  test("/contact has the form, the FAQ, the support address and SPEC's promises", async ({ page }) => {
    const { html, text } = await page("/contact");
    for (const name of ["name", "email", "subject"]) expect(tagsWith(html, "input", `name="${name}"`)[0]).toContain("required");
    const message = tagsWith(html, "textarea", 'name="message"')[0];
    expect(message).toContain("required");
    expect(message).toContain('rows="6"');
    expect(text).toContain("support@playasempress.example");
    expect(text).toContain("typically within 24 hours");
    expect(text).toContain("20+ games within a year");
    expect(text).toContain("Every new account receives 20 free credits.");
  });

  test.for(["privacy", "terms"])("/%s shows its plain-language text with the support address filled in", async (name, { page }) => {
    const { text } = await page(`/${name}`);
    expect(text).toContain(name === "privacy" ? "Privacy Policy" : "Terms");
    expect(text).toContain("support@playasempress.example");
    expect(text).not.toContain("{support_email}");
    expect(text).toContain("Last updated");
  });
});

describe("/sitemap.xml and /robots.txt", () => {
  test("lists the public pages, active games, their guide and tips pages, guides and articles", async ({ server }) => {
    const response = await server.fetch("/sitemap.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/xml");
    const xml = await response.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!.replace(server.url, ""));
    expect(locations).toEqual(
      expect.arrayContaining([
        "/",
        "/games",
        "/games/category/beginner",
        "/games/category/intermediate",
        "/games/category/advanced",
        "/game/empress-simulator",
        "/game/celebrity-life",
        "/game/empress-simulator/guide",
        "/game/empress-simulator/tips",
        "/guides",
        "/guides/getting-started",
        "/guides/ai-storytelling-tips",
        "/guides/best-practices",
        "/guides/writing-memorable-characters",
        "/blog",
        "/blog/how-to-play-an-empress-court-intrigue",
        "/about",
        "/contact",
        "/privacy",
        "/terms",
      ]),
    );
    expect(new Set(locations).size).toBe(locations.length);
    expect(locations.some((location) => /^\/(admin|play|api|auth)/.test(location))).toBe(false);
  });

  test("keeps crawlers out of the private areas and points them at the sitemap", async ({ server }) => {
    const response = await server.fetch("/robots.txt");
    expect(response.headers.get("content-type")).toContain("text/plain");
    const robots = await response.text();
    for (const line of [
      "User-agent: *",
      "Disallow: /admin",
      "Disallow: /play",
      "Disallow: /api",
      "Disallow: /auth",
      `Sitemap: ${server.url}/sitemap.xml`,
    ]) {
      expect(robots.split("\n")).toContain(line);
    }
  });
});
