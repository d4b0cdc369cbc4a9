import { ArrowRight, Clock } from "lucide-react";
import { Link, redirect } from "react-router";
import { BackLinkWithBreadcrumbs } from "#app/components/breadcrumbs.tsx";
import { readTime } from "#app/components/guide-card.tsx";
import { renderMarkdown } from "#app/components/render-markdown.server.tsx";
import { RichText } from "#app/components/rich-text.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getGuide, listBuiltInGuides, listPublishedGuides } from "#app/domain/guides.server.ts";
import { articleJsonLd, breadcrumbJsonLd, pageMeta, type Crumb } from "#app/lib/seo.ts";
import { capitalize } from "#app/lib/utils.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/guide";

export async function loader({ params, context }: Route.LoaderArgs) {
  let guide;
  let library;
  try {
    [guide, library] = await Promise.all([getGuide(params.slug), listPublishedGuides()]);
  } catch (error) {
    context.get(requestContext).logger.error({ err: error, slug: params.slug }, "the guide failed to load");
    throw redirect("/guides");
  }
  // SPEC: an unknown guide goes back to the hub.
  if (!guide) throw redirect("/guides");
  const others = [...listBuiltInGuides(), ...library].filter((other) => other.slug !== guide.slug).slice(0, 4);
  return {
    guide: {
      slug: guide.slug,
      title: guide.title,
      description: guide.description,
      category: guide.category,
      difficulty: guide.difficulty,
      readTimeMinutes: guide.readTimeMinutes,
      publishedAt: guide.publishedAt?.toISOString().slice(0, 10),
      html: renderMarkdown(guide.content),
    },
    continueLearning: others.map((other) => ({ slug: other.slug, title: other.title, readTimeMinutes: other.readTimeMinutes })),
  };
}

export const headers = () => cacheForVisitors();

function crumbs(guide: { slug: string; title: string }): Crumb[] {
  return [
    { name: "Home", path: "/" },
    { name: "Guides", path: "/guides" },
    { name: guide.title, path: `/guides/${guide.slug}` },
  ];
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  const { guide } = loaderData;
  const path = `/guides/${guide.slug}`;
  return pageMeta(site, {
    title: guide.title,
    description: guide.description,
    path,
    type: "article",
    jsonLd: [
      articleJsonLd(site, {
        path,
        title: guide.title,
        description: guide.description,
        author: site.name,
        publishedTime: guide.publishedAt,
        section: "Guides",
        tags: [guide.category, guide.difficulty],
      }),
      breadcrumbJsonLd(site, crumbs(guide)),
    ],
  });
};

export default function GuidePage({ loaderData }: Route.ComponentProps) {
  const { guide, continueLearning } = loaderData;
  return (
    <article>
      <header className="border-b border-ink-line bg-gradient-to-b from-plum/20 to-ink">
        <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
          <BackLinkWithBreadcrumbs back={{ to: "/guides", label: "Back to Guides" }} crumbs={crumbs(guide)} />
          <div className="mt-10 flex flex-wrap items-center gap-2">
            <Badge variant="outline">{capitalize(guide.category)}</Badge>
            <Badge variant="outline">{capitalize(guide.difficulty)}</Badge>
            <span className="inline-flex items-center gap-1.5 text-sm text-parchment-dim">
              <Clock className="size-4" strokeWidth={1.75} aria-hidden />
              {readTime(guide.readTimeMinutes)}
            </span>
          </div>
          <h1 className="mt-5 text-4xl text-parchment sm:text-6xl">{guide.title}</h1>
          <p className="mt-5 text-lg text-parchment-dim">{guide.description}</p>
        </div>
      </header>

      <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
        <RichText html={guide.html} />

        {continueLearning.length > 0 ? (
          <nav aria-labelledby="continue-heading" className="mt-16 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6 sm:p-8">
            <h2 id="continue-heading" className="text-3xl text-parchment">
              Continue Learning
            </h2>
            <ul className="mt-5 divide-y divide-ink-line">
              {continueLearning.map((other) => (
                <li key={other.slug}>
                  <Link to={`/guides/${other.slug}`} className="group flex items-center justify-between gap-4 rounded-sm py-4">
                    <span>
                      <span className="block font-medium text-parchment group-hover:text-gold">{other.title}</span>
                      <span className="text-sm text-parchment-dim">{readTime(other.readTimeMinutes)}</span>
                    </span>
                    <ArrowRight className="size-5 shrink-0 text-gold transition-transform group-hover:translate-x-1" aria-hidden />
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}

        <div className="mt-10 flex flex-wrap gap-3">
          <Button asChild>
            <Link to="/games">Browse Games</Link>
          </Button>
          <Button asChild variant="outline">
            <Link to="/guides">All Guides</Link>
          </Button>
        </div>
      </div>
    </article>
  );
}
