import { describe, expect } from "vitest";
import { canonicalUrls, hrefs, jsonLd, jsonLdOfType, links, meta, testIds, title, visibleText } from "#tests/helpers/html.ts";
import { cardSlugs, PUBLIC_PAGES, publicHtmlTest as test, tagsWith } from "#tests/helpers/public-html.ts";

/**
 * The catalogue's pages as a crawler sees them: server HTML only (no browser, no JavaScript), with
 * their status, key texts, metadata and structured data — every page's metadata, home, /games, the
 * difficulty pages and a game's pages. The rest of the site is public-site-pages.test.ts. These
 * tests only read the seeded site.
 */

describe("metadata on every public page", () => {
  test.for(PUBLIC_PAGES)(
    "%s has a title, a description of at most 155 characters, a canonical URL, Open Graph, Twitter and the Organization",
    async (path, { server, page }) => {
      const { html } = await page(path);
      expect(title(html)).toMatch(/Play as Empress/);
      const description = meta(html, "description") ?? "";
      expect(description.length).toBeGreaterThan(50);
      expect(description.length).toBeLessThanOrEqual(155);
      expect(canonicalUrls(html)).toEqual([new URL(path, server.url).toString()]);
      expect(meta(html, "og:title")).toBe(title(html));
      expect(meta(html, "og:description")).toBe(description);
      expect(meta(html, "og:url")).toBe(new URL(path, server.url).toString());
      // A game's pages show its own cover's card; every other page the site's.
      const card = path.startsWith("/game/") ? new RegExp(`^${server.url}/covers/og/empress-simulator-[0-9a-f]{16}\\.jpg$`) : /\/og-image\.jpg$/;
      expect(meta(html, "og:image")).toMatch(card);
      expect(meta(html, "twitter:image")).toBe(meta(html, "og:image"));
      expect(meta(html, "twitter:card")).toBe("summary_large_image");
      expect(meta(html, "twitter:title")).toBe(title(html));
      expect(jsonLdOfType(html, "Organization")).toMatchObject({ name: "Play as Empress", url: `${server.url}/`, logo: `${server.url}/logo.png` });
      expect(meta(html, "robots")).toBeUndefined();
    },
  );

  test("serves the social card and the logo the metadata points to", async ({ server }) => {
    for (const [path, type] of [
      ["/og-image.jpg", "image/jpeg"],
      ["/logo.png", "image/png"],
    ] as const) {
      const response = await server.fetch(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe(type);
    }
  });
});

describe("home", () => {
  test("shows the hero, the three features, the first three games by sort order and the calls to action", async ({ page }) => {
    const { html, text } = await page("/");
    expect(/<h1[^>]*>Play as Empress<\/h1>/.test(html)).toBe(true);
    expect(hrefs(html)).toEqual(expect.arrayContaining(["/games", "/about"]));
    for (const feature of ["Become Your Character", "Instant Play", "Multiple Roles"]) expect(text).toContain(feature);
    expect(text).toContain("Choose Your Role");
    expect(cardSlugs(html)).toEqual(["empress-simulator", "matriarch-harem-simulator", "mary-sue-campus"]);
    expect(links(html).find((link) => link.text === "View All Games")?.href).toBe("/games");
    expect(text).toContain("Create a free account and receive 20 free credits.");
    expect(testIds(html, "game-card-skeleton")).toEqual([]);
  });

  test("declares the WebSite with its search action to /games?search=", async ({ server, page }) => {
    const { html } = await page("/");
    expect(jsonLdOfType(html, "WebSite")).toMatchObject({
      url: `${server.url}/`,
      potentialAction: {
        "@type": "SearchAction",
        target: { urlTemplate: `${server.url}/games?search={search_term_string}` },
        "query-input": "required name=search_term_string",
      },
    });
  });
});

describe("/games", () => {
  test("lists every active game by sort order as SPEC's cards", async ({ page }) => {
    const { html, text } = await page("/games");
    expect(cardSlugs(html)).toEqual([
      "empress-simulator",
      "matriarch-harem-simulator",
      "mary-sue-campus",
      "cultivation-simulator",
      "celebrity-life",
    ]);
    const empress = html.split('data-testid="game-card"')[1] ?? "";
    expect(empress).toContain("lucide-crown");
    expect(empress).toMatch(/class="[^"]*bg-advanced[^"]*"[^>]*data-difficulty="Advanced"/);
    expect(visibleText(`<div ${empress}`)).toContain("Rule from behind the pearl curtain until the boy comes of age");
    expect(visibleText(`<div ${empress}`)).toContain("Single player · Court intrigue");
    expect(links(empress).find((link) => link.text === "Play")).toMatchObject({ href: "/game/empress-simulator" });
    // List colours: Intermediate is gold here (purple only on the game page).
    expect(html).toMatch(/class="[^"]*bg-intermediate text-ink[^"]*"[^>]*data-difficulty="Intermediate"/);
    expect(html).toMatch(/class="[^"]*bg-beginner[^"]*"[^>]*data-difficulty="Beginner"/);
    expect(text).toContain("More Adventures Coming Soon");
    for (const teaser of ["Space Explorer", "Magic Academy", "Corporate Tycoon"]) expect(text).toContain(teaser);
  });

  test("offers the difficulty filter as crawlable links and the search box as a GET form", async ({ page }) => {
    const { html } = await page("/games");
    for (const [label, href] of [
      ["All", "/games"],
      ["Beginner", "/games?difficulty=beginner"],
      ["Intermediate", "/games?difficulty=intermediate"],
      ["Advanced", "/games?difficulty=advanced"],
    ]) {
      expect(
        links(html).find((link) => link.text === label && link.href === href),
        label,
      ).toBeDefined();
    }
    const form = tagsWith(html, "form", 'role="search"')[0] ?? "";
    expect(form).toContain('action="/games"');
    expect(form).toContain('method="get"');
    expect(tagsWith(html, "input", 'name="search"')[0]).toContain('type="search"');
  });

  test("filters by difficulty from the URL, case-insensitively", async ({ server, page }) => {
    const { html } = await page("/games?difficulty=Beginner");
    expect(cardSlugs(html)).toEqual(["mary-sue-campus", "celebrity-life"]);
    expect(canonicalUrls(html)).toEqual([`${server.url}/games?difficulty=beginner`]);
    expect(html).toMatch(/aria-current="page"[^>]*>Beginner</);
  });

  test("searches titles, taglines and descriptions case-insensitively, and keeps search results out of the index", async ({ server, page }) => {
    expect(cardSlugs((await page("/games?search=CAMPUS")).html)).toEqual(["mary-sue-campus"]);
    expect(cardSlugs((await page("/games?search=pearl%20curtain")).html)).toEqual(["empress-simulator"]);
    expect(cardSlugs((await page("/games?search=nascent%20soul")).html)).toEqual(["cultivation-simulator"]);
    const { html, text } = await page("/games?search=campus&difficulty=advanced");
    expect(cardSlugs(html)).toEqual([]);
    expect(text).toContain("No games found");
    expect(text).toContain("Try adjusting your filters to see more games.");
    expect(meta(html, "robots")).toBe("noindex, follow");
    expect(canonicalUrls(html)).toEqual([`${server.url}/games?difficulty=advanced`]);
  });

  test("takes wildcard characters in a search literally", async ({ page }) => {
    const { text } = await page("/games?search=%25_%25");
    expect(text).toContain("No games found");
  });
});

describe("/games/category/{category}", () => {
  test("shows a level's description, features, games, tips and the other levels", async ({ page }) => {
    const { html, text } = await page("/games/category/intermediate");
    expect(text).toContain("Intermediate Adventures");
    for (const feature of ["Complex character development", "Multi-layered storylines", "Strategic decisions", "Relationship systems"]) {
      expect(text).toContain(feature);
    }
    expect(text).toContain("2 Intermediate Games");
    expect(cardSlugs(html)).toEqual(["matriarch-harem-simulator", "cultivation-simulator"]);
    expect(text).toContain("Tips for Intermediate Players");
    expect(text).toContain("Track the people, not just the plot");
    expect(hrefs(html)).toEqual(expect.arrayContaining(["/games", "/games/category/beginner", "/games/category/advanced"]));
    expect(hrefs(html)).not.toContain("/games/category/intermediate");
    expect(title(html)).toBe("Intermediate Adventures — Deeper AI Role-Play Stories | Play as Empress");
    expect(jsonLdOfType(html, "BreadcrumbList")?.itemListElement).toHaveLength(3);
  });

  test("says 'Game' for one game and accepts the level in any case", async ({ server, page }) => {
    const { html, text } = await page("/games/category/ADVANCED");
    expect(text).toContain("1 Advanced Game ");
    expect(canonicalUrls(html)).toEqual([`${server.url}/games/category/advanced`]);
  });

  test("has its own title and description per level", async ({ page }) => {
    const titles = new Set<string | undefined>();
    const descriptions = new Set<string | undefined>();
    for (const level of ["beginner", "intermediate", "advanced"]) {
      const { html } = await page(`/games/category/${level}`);
      titles.add(title(html));
      descriptions.add(meta(html, "description"));
    }
    expect(titles.size).toBe(3);
    expect(descriptions.size).toBe(3);
  });

  test("sends any other category, or none, to /games", async ({ redirectOf }) => {
    expect(await redirectOf("/games/category/expert")).toBe("/games");
    expect(await redirectOf("/games/category")).toBe("/games");
  });
});

describe("/game/{slug}", () => {
  test("shows everything SPEC's game page has", async ({ page }) => {
    const { html, text } = await page("/game/empress-simulator");
    expect(links(html).find((link) => link.text === "Back to Games")?.href).toBe("/games");
    expect(/<h1[^>]*>Empress Simulator<\/h1>/.test(html)).toBe(true);
    expect(text).toContain("Rule from behind the pearl curtain until the boy comes of age");
    expect(html).toMatch(/class="[^"]*bg-advanced[^"]*"[^>]*data-difficulty="Advanced"/);
    expect(text).toContain("Unlimited Time");
    expect(
      links(html)
        .filter((link) => link.text === "Start Playing Now")
        .map((link) => link.href),
    ).toContain("/play/empress-simulator");
    expect(text).toContain("Game Features");
    for (const feature of ["AI-Powered Storytelling", "Dynamic Narrative", "Choice-Driven Story", "Immersive Experience"]) {
      expect(text).toContain(feature);
    }
    expect(text).toContain("Complex scenarios for veteran players");
  });

  test("introduces the game with its published background, characters and world under SPEC's headings", async ({ page }) => {
    const { text } = await page("/game/empress-simulator");
    const introduction = text.slice(text.indexOf("Game Introduction"), text.indexOf("How to Play"));
    expect(introduction).toContain("Rule as regent Empress Dowager for an eight-year-old emperor.");
    expect(introduction).toMatch(/Rich Story Background .*Two Hundred Years of the House of Rong/);
    expect(introduction).toMatch(/Character Development .*Four Ways to Hold the Brush/);
    expect(introduction).toMatch(/World Setting .*Anxiang, the Capital/);
  });

  test("explains how to play, the mechanics, strategy and the FAQ", async ({ page }) => {
    const { text } = await page("/game/empress-simulator");
    for (const step of [
      "Click “Start Playing Now”",
      "Read the AI's narrative",
      "Type your character's actions and decisions",
      "Watch the AI respond and advance the story",
    ]) {
      expect(text).toContain(step);
    }
    expect(text).toMatch(/Combat & Challenges .*You will never draw a sword in Empress Simulator/);
    expect(text).toMatch(/Dialogue System .*Register and Rank/);
    expect(text).toMatch(/Character Progression .*Milestones of the Regency/);
    expect(text).toMatch(/Beginner Tips .*Buy Time Before You Buy Enemies/);
    expect(text).toMatch(/Advanced Strategies .*Keep a Ledger/);
    expect(text).toMatch(/Community Insights .*The Tea-House Regent/);
    expect(text).toContain("15–30 minutes");
    expect(text).toContain("several hours");
    for (const question of [
      "How long does a game session take?",
      "What makes Empress Simulator unique?",
      "Is this game beginner friendly?",
      "Can I save my progress?",
    ]) {
      expect(text).toContain(question);
    }
  });

  test("renders the preview chat on the server with SPEC's welcome and placeholder", async ({ page }) => {
    const { html, text } = await page("/game/empress-simulator");
    expect(testIds(html, "preview-chat")).toHaveLength(1);
    expect(text).toContain(
      "Welcome to Empress Simulator! I am your AI Game Master. Rule as regent Empress Dowager for an eight-year-old emperor.",
    );
    // No part of the prompt, not even its opening scene, leaves the server (prompt-privacy.test.ts).
    expect(text).not.toContain("The Jingyuan Emperor is dead at thirty-four");
    expect(text).not.toContain("You are the Game Master and narrator");
    expect(html).toContain('placeholder="What do you want to do? Type your action or choice..."');
    expect(links(html).find((link) => link.text === "Sign In to Play")?.href).toBe("/auth?redirectTo=%2Fplay%2Fempress-simulator");
  });

  test("links to the published guide and tips", async ({ page }) => {
    const { html } = await page("/game/empress-simulator");
    expect(hrefs(html)).toEqual(expect.arrayContaining(["/game/empress-simulator/guide", "/game/empress-simulator/tips"]));
  });

  test("uses the detail colours: Intermediate is purple", async ({ page }) => {
    const { html } = await page("/game/matriarch-harem-simulator");
    expect(html).toMatch(/class="[^"]*bg-intermediate-detail[^"]*"[^>]*data-difficulty="Intermediate"/);
    expect(html).toContain("Balanced challenge for experienced players");
    const beginner = await page("/game/mary-sue-campus");
    expect(beginner.text).toContain("Perfect for newcomers to interactive fiction");
  });

  test("declares a VideoGame with a free offer and the breadcrumb Home / Games / title", async ({ server, page }) => {
    const { html } = await page("/game/empress-simulator");
    expect(jsonLdOfType(html, "VideoGame")).toMatchObject({
      name: "Empress Simulator",
      url: `${server.url}/game/empress-simulator`,
      offers: { "@type": "Offer", price: 0, priceCurrency: "USD" },
    });
    expect(JSON.stringify(jsonLd(html))).not.toMatch(/aggregateRating/);
    expect(jsonLdOfType(html, "BreadcrumbList")?.itemListElement).toEqual([
      { "@type": "ListItem", position: 1, name: "Home", item: `${server.url}/` },
      { "@type": "ListItem", position: 2, name: "Games", item: `${server.url}/games` },
      { "@type": "ListItem", position: 3, name: "Empress Simulator", item: `${server.url}/game/empress-simulator` },
    ]);
  });

  test("sends a missing slug or an unknown game to /games", async ({ redirectOf }) => {
    expect(await redirectOf("/game")).toBe("/games");
    expect(await redirectOf("/game/")).toBe("/games");
    expect(await redirectOf("/game/no-such-game")).toBe("/games");
  });
});

describe("/game/{slug}/guide and /tips", () => {
  test("shows the complete guide with its buttons and breadcrumb", async ({ page }) => {
    const { html, text } = await page("/game/empress-simulator/guide");
    expect(visibleText(/<h1[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1] ?? "")).toBe("Empress Simulator - Complete Guide");
    expect(text).toContain("The Complete Regent's Handbook");
    expect(text).toContain("Phase One: The First Hundred Days");
    expect(links(html).find((link) => link.text === "Back to Game Page")?.href).toBe("/game/empress-simulator");
    expect(links(html).find((link) => link.text === "Quick Tips & Tricks")?.href).toBe("/game/empress-simulator/tips");
    expect(links(html).find((link) => link.text === "Start Playing Now")?.href).toBe("/play/empress-simulator");
    const crumbs = jsonLdOfType(html, "BreadcrumbList")?.itemListElement as { name: string }[];
    expect(crumbs.map((crumb) => crumb.name)).toEqual(["Home", "Games", "Empress Simulator", "Strategy Guide"]);
    expect(title(html)).toBe("Empress Simulator - Complete Guide | Play as Empress");
  });

  test("shows the pro tips with a link to the guide", async ({ page }) => {
    const { html, text } = await page("/game/empress-simulator/tips");
    expect(/<h1[^>]*>Pro Tips &amp; Tricks<\/h1>/.test(html)).toBe(true);
    expect(text).toContain("Twenty-Two Pro Tips for the Regent Empress Dowager");
    expect(links(html).find((link) => link.text === "Read the Complete Guide")?.href).toBe("/game/empress-simulator/guide");
    const crumbs = jsonLdOfType(html, "BreadcrumbList")?.itemListElement as { name: string }[];
    expect(crumbs.map((crumb) => crumb.name)).toEqual(["Home", "Games", "Empress Simulator", "Pro Tips"]);
  });

  test("renders content as sanitised HTML, never as raw Markdown", async ({ page }) => {
    const { html } = await page("/game/empress-simulator/guide");
    expect(html).toMatch(/<h2>How the Game Works<\/h2>/);
    expect(html).not.toContain("## How the Game Works");
  });

  test("sends an unknown game to /games", async ({ redirectOf }) => {
    expect(await redirectOf("/game/no-such-game/guide")).toBe("/games");
    expect(await redirectOf("/game/no-such-game/tips")).toBe("/games");
  });
});
