import type { MetaDescriptor } from "react-router";
import { META_DESCRIPTION_LIMIT } from "./constants.ts";
import type { SiteInfo } from "./site.ts";

/**
 * Search-engine and link-preview metadata for every public page: title, description, canonical
 * URL, Open Graph, Twitter and JSON-LD (schema.org) — built here once so pages only say what
 * they are about.
 */

/** docs/spec.md §5: a description longer than 155 characters is cut to 152 characters plus '...'. */
export function metaDescription(text: string): string {
  const clean = text.replace(/\s+/g, " ").trim();
  return clean.length > META_DESCRIPTION_LIMIT ? `${clean.slice(0, META_DESCRIPTION_LIMIT - 3)}...` : clean;
}

export function absoluteUrl(site: SiteInfo, path: string): string {
  return new URL(path, `${site.publicUrl}/`).toString();
}

/** The 1200×630 card link previews show (public/og-image.jpg). */
export const SOCIAL_IMAGE = { path: "/og-image.jpg", width: 1200, height: 630 } as const;
export const LOGO_PATH = "/logo.png";

type JsonLd = Record<string, unknown>;

export interface PageSeo {
  /** The page's own title; the site name is appended unless `fullTitle` is set. */
  title: string;
  fullTitle?: boolean;
  description: string;
  /** Canonical path (with any query that changes the content), e.g. `/games?difficulty=beginner`. */
  path: string;
  type?: "website" | "article";
  /** Structured data besides the Organization every page carries. */
  jsonLd?: JsonLd[];
  /** Search results and other pages that should not be indexed (still followed). */
  noindex?: boolean;
  article?: { publishedTime: string; author: string; section: string; tags: readonly string[] };
  /** The page's own 1200×630 link-preview card (a game's cover), instead of the site's. */
  image?: { path: string; alt: string };
}

export function pageMeta(site: SiteInfo, page: PageSeo): MetaDescriptor[] {
  const title = page.fullTitle ? page.title : `${page.title} | ${site.name}`;
  const description = metaDescription(page.description);
  const url = absoluteUrl(site, page.path);
  const image = absoluteUrl(site, page.image?.path ?? SOCIAL_IMAGE.path);
  const descriptors: MetaDescriptor[] = [
    { title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: site.name },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    { property: "og:image", content: image },
    { property: "og:image:width", content: String(SOCIAL_IMAGE.width) },
    { property: "og:image:height", content: String(SOCIAL_IMAGE.height) },
    { property: "og:image:alt", content: page.image?.alt ?? `${site.name} — interactive stories narrated by an AI Game Master` },
    { property: "og:locale", content: "en_US" },
    { name: "twitter:card", content: "summary_large_image" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
    { name: "twitter:image", content: image },
  ];
  if (page.noindex) descriptors.push({ name: "robots", content: "noindex, follow" });
  if (page.article) {
    descriptors.push(
      { property: "article:published_time", content: page.article.publishedTime },
      { property: "article:author", content: page.article.author },
      { property: "article:section", content: page.article.section },
      ...page.article.tags.map((tag) => ({ property: "article:tag", content: tag })),
    );
  }
  for (const item of [organizationJsonLd(site), ...(page.jsonLd ?? [])]) descriptors.push({ "script:ld+json": item });
  return descriptors;
}

const SCHEMA = "https://schema.org";

function organizationId(site: SiteInfo) {
  return `${site.publicUrl}/#organization`;
}

export function organizationJsonLd(site: SiteInfo): JsonLd {
  return {
    "@context": SCHEMA,
    "@type": "Organization",
    "@id": organizationId(site),
    name: site.name,
    url: absoluteUrl(site, "/"),
    logo: absoluteUrl(site, LOGO_PATH),
    email: site.supportEmail,
    foundingDate: "2024",
    contactPoint: { "@type": "ContactPoint", contactType: "customer support", email: site.supportEmail },
  };
}

/** The site's search: /games?search={term}. */
export function webSiteJsonLd(site: SiteInfo): JsonLd {
  return {
    "@context": SCHEMA,
    "@type": "WebSite",
    name: site.name,
    url: absoluteUrl(site, "/"),
    publisher: { "@id": organizationId(site) },
    potentialAction: {
      "@type": "SearchAction",
      target: { "@type": "EntryPoint", urlTemplate: `${site.publicUrl}/games?search={search_term_string}` },
      "query-input": "required name=search_term_string",
    },
  };
}

export interface Crumb {
  name: string;
  path: string;
}

export function breadcrumbJsonLd(site: SiteInfo, crumbs: readonly Crumb[]): JsonLd {
  return {
    "@context": SCHEMA,
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: absoluteUrl(site, crumb.path),
    })),
  };
}

/** SPEC's breadcrumb list: Home / Games / {title} [/ Strategy Guide | Pro Tips]. */
export function gameCrumbs(game: { slug: string; title: string }, page?: "guide" | "tips"): Crumb[] {
  const crumbs: Crumb[] = [
    { name: "Home", path: "/" },
    { name: "Games", path: "/games" },
    { name: game.title, path: `/game/${game.slug}` },
  ];
  if (page === "guide") crumbs.push({ name: "Strategy Guide", path: `/game/${game.slug}/guide` });
  if (page === "tips") crumbs.push({ name: "Pro Tips", path: `/game/${game.slug}/tips` });
  return crumbs;
}

/** A game is free to start: the offer is price 0. No ratings — there are none to show honestly. */
export function videoGameJsonLd(
  site: SiteInfo,
  game: { slug: string; title: string; description: string; category: string; difficulty: string },
  imagePath: string = SOCIAL_IMAGE.path,
): JsonLd {
  const url = absoluteUrl(site, `/game/${game.slug}`);
  return {
    "@context": SCHEMA,
    "@type": "VideoGame",
    name: game.title,
    description: game.description,
    url,
    image: absoluteUrl(site, imagePath),
    genre: [game.category, "Interactive fiction", "Role-playing"],
    gamePlatform: "Web browser",
    applicationCategory: "Game",
    operatingSystem: "Any",
    playMode: "SinglePlayer",
    inLanguage: "en",
    audience: { "@type": "PeopleAudience", audienceType: `${game.difficulty} players` },
    publisher: { "@id": organizationId(site) },
    offers: {
      "@type": "Offer",
      price: 0,
      priceCurrency: "USD",
      availability: "https://schema.org/InStock",
      url,
    },
  };
}

export function articleJsonLd(
  site: SiteInfo,
  article: {
    path: string;
    title: string;
    description: string;
    author: string;
    /** ISO date; built-in guides have none. */
    publishedTime?: string;
    section: string;
    tags: readonly string[];
  },
): JsonLd {
  const url = absoluteUrl(site, article.path);
  return {
    "@context": SCHEMA,
    "@type": "Article",
    headline: article.title,
    description: article.description,
    url,
    mainEntityOfPage: { "@type": "WebPage", "@id": url },
    image: absoluteUrl(site, SOCIAL_IMAGE.path),
    author: { "@type": "Organization", name: article.author, url: absoluteUrl(site, "/about") },
    publisher: { "@id": organizationId(site) },
    ...(article.publishedTime ? { datePublished: article.publishedTime } : {}),
    articleSection: article.section,
    keywords: article.tags.join(", "),
    inLanguage: "en",
  };
}
