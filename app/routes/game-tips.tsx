import { redirect } from "react-router";
import { GameContentPage } from "#app/components/game-content-page.tsx";
import { renderMarkdown } from "#app/components/render-markdown.server.tsx";
import { requireGamePage } from "#app/http/guards.server.ts";
import { socialCardPath } from "#app/lib/covers.ts";
import { breadcrumbJsonLd, gameCrumbs, pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/game-tips";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { game, content } = await requireGamePage(params.slug, {
    contentTypes: ["strategy_guide", "pro_tips"],
    logger: context.get(requestContext).logger,
  });
  const tips = content.pro_tips;
  if (!tips) throw redirect(`/game/${game.slug}`);
  return {
    game: { slug: game.slug, title: game.title, icon: game.icon, description: game.description, coverHash: game.coverHash },
    tips: { title: tips.title, html: renderMarkdown(tips.content) },
    hasGuide: Boolean(content.strategy_guide),
  };
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  const { game, tips } = loaderData;
  return pageMeta(site, {
    title: `${game.title} Pro Tips & Tricks`,
    description: `${tips.title}: practical tips and tricks for ${game.title}. ${game.description}`,
    path: `/game/${game.slug}/tips`,
    image: { path: socialCardPath(game), alt: `${game.title} — cover art` },
    type: "article",
    jsonLd: [breadcrumbJsonLd(site, gameCrumbs(game, "tips"))],
  });
};

export default function GameTips({ loaderData }: Route.ComponentProps) {
  const { game, tips, hasGuide } = loaderData;
  return (
    <GameContentPage
      game={game}
      crumbs={gameCrumbs(game, "tips")}
      title="Pro Tips & Tricks"
      subtitle={tips.title}
      html={tips.html}
      crossLink={hasGuide ? { to: `/game/${game.slug}/guide`, label: "Read the Complete Guide", kind: "guide" } : null}
    />
  );
}
