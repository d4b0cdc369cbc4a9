import { redirect } from "react-router";
import { GameContentPage } from "#app/components/game-content-page.tsx";
import { renderMarkdown } from "#app/components/render-markdown.server.tsx";
import { requireGamePage } from "#app/http/guards.server.ts";
import { socialCardPath } from "#app/lib/covers.ts";
import { breadcrumbJsonLd, gameCrumbs, pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/game-guide";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { game, content } = await requireGamePage(params.slug, {
    contentTypes: ["strategy_guide", "pro_tips"],
    logger: context.get(requestContext).logger,
  });
  const guide = content.strategy_guide;
  if (!guide) throw redirect(`/game/${game.slug}`);
  return {
    game: { slug: game.slug, title: game.title, icon: game.icon, description: game.description, coverHash: game.coverHash },
    guide: { title: guide.title, html: renderMarkdown(guide.content) },
    hasTips: Boolean(content.pro_tips),
  };
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  const { game, guide } = loaderData;
  return pageMeta(site, {
    title: `${game.title} - Complete Guide`,
    description: `${guide.title}: the complete strategy guide to ${game.title}. ${game.description}`,
    path: `/game/${game.slug}/guide`,
    image: { path: socialCardPath(game), alt: `${game.title} — cover art` },
    type: "article",
    jsonLd: [breadcrumbJsonLd(site, gameCrumbs(game, "guide"))],
  });
};

export default function GameGuide({ loaderData }: Route.ComponentProps) {
  const { game, guide, hasTips } = loaderData;
  return (
    <GameContentPage
      game={game}
      crumbs={gameCrumbs(game, "guide")}
      // A non-breaking space keeps the dash at the end of a line: on a phone no line starts with "- Complete Guide".
      title={`${game.title}\u00a0- Complete Guide`}
      subtitle={guide.title}
      html={guide.html}
      crossLink={hasTips ? { to: `/game/${game.slug}/tips`, label: "Quick Tips & Tricks", kind: "tips" } : null}
    />
  );
}
