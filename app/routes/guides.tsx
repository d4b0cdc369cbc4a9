import { ArrowRight, Award, BookOpen, Compass, Flag, Lightbulb, MessageCircle, Target } from "lucide-react";
import { Link } from "react-router";
import { ComingSoonCard } from "#app/components/coming-soon-card.tsx";
import { DifficultyBadge } from "#app/components/difficulty-badge.tsx";
import { GameIcon } from "#app/components/game-icon.tsx";
import { GuideCard } from "#app/components/guide-card.tsx";
import { PageHeader, PageSection } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { listPublishedGamePages } from "#app/domain/game-content.server.ts";
import { listActiveGames } from "#app/domain/games.server.ts";
import { listBuiltInGuides, listPublishedGuides } from "#app/domain/guides.server.ts";
import { breadcrumbJsonLd, pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/guides";

/** SPEC's game-specific guide links, in its order. */
const GAME_GUIDE_SLUGS = ["empress-simulator", "matriarch-harem-simulator", "mary-sue-campus"] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const gettingStarted = listBuiltInGuides().map(({ content: _content, ...guide }) => guide);
  try {
    const [games, gamePages, library] = await Promise.all([listActiveGames(), listPublishedGamePages(), listPublishedGuides()]);
    const withGuide = new Set(gamePages.filter((page) => page.contentType === "strategy_guide").map((page) => page.gameSlug));
    const gameGuides = GAME_GUIDE_SLUGS.flatMap((slug) => {
      const game = games.find((candidate) => candidate.slug === slug);
      return game && withGuide.has(slug) ? [{ slug, title: game.title, tagline: game.tagline, icon: game.icon, difficulty: game.difficulty }] : [];
    });
    return { gettingStarted, gameGuides, library: library.map(({ publishedAt: _p, updatedAt: _u, ...guide }) => guide) };
  } catch (error) {
    // The built-in guides need no database; the rest waits for it to answer again.
    context.get(requestContext).logger.error({ err: error }, "the guides hub could not load games and library guides");
    return { gettingStarted, gameGuides: [], library: [] };
  }
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ matches }) => {
  const { site } = matches[0].loaderData;
  return pageMeta(site, {
    title: "Guides — Learn AI Role-Play and Interactive Storytelling",
    description:
      "Free guides to AI role-play: how to start your first story, write actions the Game Master loves, and master each game with strategy guides and tips.",
    path: "/guides",
    jsonLd: [
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        { name: "Guides", path: "/guides" },
      ]),
    ],
  });
};

const ADVANCED_COMING_SOON = [
  {
    icon: Compass,
    title: "Long-Campaign Planning",
    description: "How to steer a story across dozens of sessions: arcs, pacing, and knowing when to let a thread end.",
  },
  {
    icon: Target,
    title: "Reading the Game Master",
    description: "Spot the hints hidden in every reply — who is lying, which thread is live, and what a stat change is telling you.",
  },
] as const;

const COMMUNITY_COMING_SOON = [
  {
    icon: MessageCircle,
    title: "Player Stories",
    description: "Memorable playthroughs shared by players, from triumphant reigns to glorious disasters.",
  },
  { icon: Lightbulb, title: "Strategy Tips", description: "Hard-won advice from the community, collected and tested game by game." },
  { icon: Flag, title: "Challenges", description: "Self-imposed rules and monthly challenges for players who want a new kind of test." },
  { icon: Award, title: "Hall of Fame", description: "The boldest, cleverest and most beautifully written stories, celebrated." },
] as const;

export default function Guides({ loaderData }: Route.ComponentProps) {
  const { gettingStarted, gameGuides, library } = loaderData;
  return (
    <>
      <PageHeader
        eyebrow="Guides"
        title="Master the Art of Interactive Storytelling"
        description="Everything you need to get more out of every story: start with the basics, learn to write turns the Game Master loves, then dive into the strategy of each game."
      />

      <PageSection
        id="getting-started"
        title="Getting Started"
        description="Three essential reads for new players, from your first message to habits that make every story better."
      >
        <div className="grid gap-6 md:grid-cols-3">
          {gettingStarted.map((guide) => (
            <GuideCard key={guide.slug} guide={guide} />
          ))}
        </div>
      </PageSection>

      <PageSection
        id="advanced"
        tone="shaded"
        title="Advanced Strategies"
        description="Deeper techniques for experienced players are being written now."
      >
        <div className="grid gap-6 md:grid-cols-2">
          {ADVANCED_COMING_SOON.map((item) => (
            <ComingSoonCard key={item.title} {...item} />
          ))}
        </div>
      </PageSection>

      {gameGuides.length > 0 ? (
        <PageSection
          id="game-guides"
          title="Game-Specific Guides"
          description="Complete strategy guides written for individual games: their systems, their people and how to win."
        >
          <ul className="grid gap-5 md:grid-cols-3">
            {gameGuides.map((game) => (
              <li key={game.slug}>
                <Link
                  to={`/game/${game.slug}/guide`}
                  className="group flex h-full flex-col rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6 transition-colors hover:border-gold/60"
                >
                  <span className="flex items-start justify-between gap-3">
                    <GameIcon name={game.icon} />
                    <DifficultyBadge difficulty={game.difficulty} />
                  </span>
                  <span className="mt-4 font-display text-2xl font-bold text-parchment">{game.title} Guide</span>
                  {game.tagline ? <span className="mt-1 text-sm text-parchment-dim">{game.tagline}</span> : null}
                  <span className="mt-auto inline-flex items-center gap-1 pt-5 text-sm font-medium text-gold">
                    <BookOpen className="size-4" strokeWidth={1.75} aria-hidden />
                    Read the complete guide
                    <ArrowRight className="size-4 transition-transform group-hover:translate-x-1" aria-hidden />
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </PageSection>
      ) : null}

      {library.length > 0 ? (
        <PageSection
          id="library"
          tone="ruled"
          title="From the Guide Library"
          description="More guides and articles from our writers, on craft, strategy and the worlds of our games."
        >
          <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {library.map((guide) => (
              <GuideCard key={guide.slug} guide={guide} />
            ))}
          </div>
        </PageSection>
      ) : null}

      <PageSection id="community" tone="shaded" title="Community Wisdom" description="Soon, the best of what players learn will live here.">
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {COMMUNITY_COMING_SOON.map((item) => (
            <ComingSoonCard key={item.title} {...item} />
          ))}
        </div>
      </PageSection>

      <section aria-labelledby="guides-cta-heading" className="border-t border-ink-line bg-gradient-to-b from-ink to-plum/25">
        <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-16 text-center">
          <h2 id="guides-cta-heading" className="text-4xl text-parchment">
            Ready to put it into practice?
          </h2>
          <p className="mt-4 text-lg text-parchment-dim">The best teacher is a story of your own. Pick a world and make your first move.</p>
          <div className="mt-8 flex flex-wrap justify-center gap-4">
            <Button asChild size="lg">
              <Link to="/games">Browse Games</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/about">About Us</Link>
            </Button>
          </div>
        </div>
      </section>
    </>
  );
}
