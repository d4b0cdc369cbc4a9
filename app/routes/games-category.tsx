import { ArrowRight, Check, Lightbulb } from "lucide-react";
import { data, Link, redirect, useNavigation } from "react-router";
import { BackLink } from "#app/components/back-link.tsx";
import { DifficultyBadge } from "#app/components/difficulty-badge.tsx";
import { GameCard, GameCardSkeletons } from "#app/components/game-card.tsx";
import { GAMES_FAILED_TEXT, GAMES_FAILED_TITLE, GameListMessage } from "#app/components/game-list-states.tsx";
import { PageSection } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { listActiveGames } from "#app/domain/games.server.ts";
import { DIFFICULTY_LEVELS, findDifficultyLevel } from "#app/lib/difficulty-levels.ts";
import { breadcrumbJsonLd, pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/games-category";

export async function loader({ params, context }: Route.LoaderArgs) {
  const level = findDifficultyLevel(params.category);
  if (!level) throw redirect("/games");
  try {
    return { difficulty: level.difficulty, games: await listActiveGames({ difficulty: level.difficulty }), failed: false };
  } catch (error) {
    context.get(requestContext).logger.error({ err: error }, "the category's games failed to load");
    return data({ difficulty: level.difficulty, games: [], failed: true }, { status: 503 });
  }
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  const level = DIFFICULTY_LEVELS[loaderData.difficulty];
  return pageMeta(site, {
    title: level.metaTitle,
    description: level.metaDescription,
    path: `/games/category/${level.slug}`,
    jsonLd: [
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        { name: "Games", path: "/games" },
        { name: `${level.difficulty} Adventures`, path: `/games/category/${level.slug}` },
      ]),
    ],
  });
};

export default function GamesCategory({ loaderData }: Route.ComponentProps) {
  const { difficulty, games, failed } = loaderData;
  const level = DIFFICULTY_LEVELS[difficulty];
  const others = Object.values(DIFFICULTY_LEVELS).filter((other) => other.difficulty !== difficulty);
  const navigation = useNavigation();
  const loadingGames = navigation.state === "loading" && navigation.location.pathname.startsWith("/games/category/");

  return (
    <>
      <header className="border-b border-ink-line bg-gradient-to-b from-plum/15 to-ink">
        <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
          <BackLink to="/games">Back to Games</BackLink>
          <div className="mt-8 grid gap-10 lg:grid-cols-[1fr_22rem] lg:items-start">
            <div>
              <DifficultyBadge difficulty={difficulty} />
              <h1 className="mt-4 text-4xl text-parchment sm:text-6xl">{difficulty} Adventures</h1>
              <p className="mt-5 max-w-2xl text-lg text-parchment-dim">{level.description}</p>
            </div>
            <div className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6">
              <h2 className="font-sans text-sm font-semibold tracking-wider text-parchment uppercase">What to expect</h2>
              <ul className="mt-4 space-y-3">
                {level.features.map((feature) => (
                  <li key={feature} className="flex items-start gap-3 text-parchment">
                    <Check className="mt-1 size-4 shrink-0 text-gold" strokeWidth={2} aria-hidden />
                    {feature}
                  </li>
                ))}
              </ul>
            </div>
          </div>
        </div>
      </header>

      <section aria-labelledby="category-games-heading" className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <h2 id="category-games-heading" className="mb-8 text-3xl text-parchment sm:text-4xl">
          {failed ? `${difficulty} Games` : `${games.length} ${difficulty} ${games.length === 1 ? "Game" : "Games"}`}
        </h2>
        {loadingGames ? (
          <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading games">
            <GameCardSkeletons count={6} />
          </div>
        ) : failed ? (
          <GameListMessage tone="error" title={GAMES_FAILED_TITLE}>
            {GAMES_FAILED_TEXT}
          </GameListMessage>
        ) : games.length === 0 ? (
          <GameListMessage
            tone="empty"
            title={`No ${difficulty} Games Yet`}
            actions={
              <Button asChild>
                <Link to="/games">View All Games</Link>
              </Button>
            }
          >
            We are writing new {difficulty.toLowerCase()} adventures. Meanwhile, every other game is ready to play.
          </GameListMessage>
        ) : (
          <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {games.map((game, index) => (
              <GameCard key={game.slug} game={game} priority={index === 0} />
            ))}
          </div>
        )}
      </section>

      <PageSection
        id="tips"
        tone="shaded"
        title={`Tips for ${difficulty} Players`}
        description="Habits that make these stories richer, learned from thousands of turns with the Game Master."
      >
        <ol className="grid gap-5 md:grid-cols-2">
          {level.tips.map((tip) => (
            <li key={tip.title} className="flex gap-4 rounded-[var(--radius-card)] border border-ink-line bg-ink p-6">
              <Lightbulb className="mt-1 size-5 shrink-0 text-gold" strokeWidth={1.75} aria-hidden />
              <div>
                <h3 className="font-sans text-base font-semibold text-parchment">{tip.title}</h3>
                <p className="mt-2 text-sm text-parchment-dim">{tip.text}</p>
              </div>
            </li>
          ))}
        </ol>
      </PageSection>

      <nav aria-labelledby="levels-heading" className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <h2 id="levels-heading" className="mb-6 text-3xl text-parchment">
          Explore Other Levels
        </h2>
        <ul className="grid gap-5 md:grid-cols-2">
          {others.map((other) => (
            <li key={other.slug}>
              <Link
                to={`/games/category/${other.slug}`}
                className="group flex h-full items-center justify-between gap-4 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6 transition-colors hover:border-gold/60"
              >
                <span>
                  <DifficultyBadge difficulty={other.difficulty} />
                  <span className="mt-3 block font-display text-2xl font-bold text-parchment">{other.difficulty} Adventures</span>
                  <span className="mt-1 block text-sm text-parchment-dim">{other.features.join(" · ")}</span>
                </span>
                <ArrowRight className="size-5 shrink-0 text-gold transition-transform group-hover:translate-x-1" aria-hidden />
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}
