import { BookOpen, Check, Clock, Lightbulb, Play } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { BackLinkWithBreadcrumbs } from "#app/components/breadcrumbs.tsx";
import { CoverPicture } from "#app/components/cover-picture.tsx";
import { DifficultyBadge } from "#app/components/difficulty-badge.tsx";
import { FaqList } from "#app/components/faq-list.tsx";
import { DIFFICULTY_NOTES, GAME_FEATURES, gamePageFaq, HOW_TO_PLAY, MECHANIC_ICONS, STRATEGY_ICONS } from "#app/components/game-page-copy.ts";
import { GameIcon } from "#app/components/game-icon.tsx";
import { PageSection, SectionHeading } from "#app/components/page-header.tsx";
import { PreviewChat } from "#app/components/preview-chat.tsx";
import { renderMarkdown } from "#app/components/render-markdown.server.tsx";
import { RichText } from "#app/components/rich-text.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button, ButtonGroup } from "#app/components/ui/button.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { ReportWorld } from "#app/components/moderation/report-world.tsx";
import { WorldModerationNotice } from "#app/components/moderation/world-moderation-notice.tsx";
import { WorldCredits, type WorldCreditsData } from "#app/components/world-credits.tsx";
import { getSessionUser } from "#app/domain/auth.server.ts";
import { viewerSeesMature, worldDetails } from "#app/domain/community.server.ts";
import { worldModerationNotice } from "#app/domain/moderation.server.ts";
import type { PublishedContent } from "#app/domain/game-content.server.ts";
import { requireGamePage } from "#app/http/guards.server.ts";
import type { ContentType } from "#app/lib/constants.ts";
import { socialCardPath } from "#app/lib/covers.ts";
import { breadcrumbJsonLd, gameCrumbs, pageMeta, videoGameJsonLd } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import type { WorldStatus } from "#app/lib/worlds.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/game";

interface Section {
  heading: string;
  html: string;
}

/** SPEC's headings for each content type the page shows, in page order. */
const INTRODUCTION = [
  ["story_background", "Rich Story Background"],
  ["character_development", "Character Development"],
  ["world_setting", "World Setting"],
] as const;
const MECHANICS = [
  ["combat_mechanics", "Combat & Challenges"],
  ["dialogue_system", "Dialogue System"],
  ["character_progression", "Character Progression"],
] as const;
const STRATEGY = [
  ["beginner_tips", "Beginner Tips"],
  ["advanced_strategies", "Advanced Strategies"],
  ["community_insights", "Community Insights"],
] as const;

function sections(content: PublishedContent, list: readonly (readonly [ContentType, string])[], headingOffset: number): Section[] {
  return list.flatMap(([type, heading]) => {
    const section = content[type];
    return section ? [{ heading, html: renderMarkdown(section.content, { headingOffset }) }] : [];
  });
}

export async function loader({ params, context, request }: Route.LoaderArgs) {
  // A Mature world is in the page only for a player who confirmed their age: never in a visitor's,
  // so never in a page kept for visitors (docs/decisions/059).
  const showMature = await viewerSeesMature(request);
  const { game, content } = await requireGamePage(params.slug, { logger: context.get(requestContext).logger, showMature });
  const world = game.creatorId ? await worldCredits(request, game) : null;
  return {
    world,
    // Only its creator reads what a moderator decided about their world (never in a visitor's page).
    moderation: world?.ownWorld ? await worldModerationNotice(game.id) : null,
    listed: game.status === "public" && game.contentRating !== "Mature",
    game: {
      slug: game.slug,
      title: game.title,
      tagline: game.tagline,
      description: game.description,
      icon: game.icon,
      difficulty: game.difficulty,
      category: game.category,
      players: game.players,
      coverHash: game.coverHash,
    },
    // Content headings sit below the section's h2 and SPEC's h3 (and the mechanics boxes' h4).
    introduction: sections(content, INTRODUCTION, 2),
    mechanics: sections(content, MECHANICS, 3),
    strategy: sections(content, STRATEGY, 2),
    hasGuide: Boolean(content.strategy_guide),
    hasTips: Boolean(content.pro_tips),
  };
}

async function worldCredits(request: Request, game: { id: string; status: WorldStatus }): Promise<WorldCreditsData | null> {
  const viewer = await getSessionUser(request);
  const details = await worldDetails(game.id, viewer?.id);
  return details ? { id: game.id, remixable: game.status === "public", ...details } : null;
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  const { game, listed } = loaderData;
  const card = socialCardPath(game);
  return pageMeta(site, {
    noindex: !listed,
    title: `${game.title} — Free AI ${game.category} Adventure`,
    description: game.tagline ? `${game.tagline}. ${game.description}` : game.description,
    path: `/game/${game.slug}`,
    image: { path: card, alt: `${game.title} — cover art` },
    jsonLd: [videoGameJsonLd(site, game, card), breadcrumbJsonLd(site, gameCrumbs(game))],
  });
};

function anchor(heading: string) {
  return heading.toLowerCase().replace(/[^a-z0-9]+/g, "-");
}

/** Headings inside the boxes (content h2 → h5) read as small gold labels. */
const BOX_PROSE = "mt-3 [&_.prose-story]:text-[15px] [&_h5]:mt-5 [&_h5]:font-semibold [&_h5]:text-gold";

function Panel({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={`rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6 ${className ?? ""}`}>{children}</div>;
}

export default function GamePage({ loaderData }: Route.ComponentProps) {
  const { game, world, moderation, introduction, mechanics, strategy, hasGuide, hasTips } = loaderData;
  const hasStrategy = strategy.length > 0 || hasGuide || hasTips;
  const { viewer } = useRootData();
  const playPath = `/play/${game.slug}`;

  return (
    <article>
      <header className="border-b border-ink-line bg-gradient-to-b from-plum/20 to-ink">
        <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
          <BackLinkWithBreadcrumbs back={{ to: "/games", label: "Back to Games" }} crumbs={gameCrumbs(game)} />
          <div className="mt-10 grid gap-x-10 gap-y-8 lg:grid-cols-[minmax(0,1fr)_28rem]">
            <div className="overflow-hidden rounded-[var(--radius-card)] border border-ink-line shadow-2xl shadow-black/40 lg:col-start-2 lg:row-start-1">
              <CoverPicture game={game} sizes="(min-width: 1024px) 448px, calc(100vw - 32px)" priority />
            </div>
            <div className="lg:col-start-1 lg:row-span-2 lg:row-start-1">
              <GameIcon name={game.icon} size="lg" />
              <h1 className="mt-6 text-5xl text-parchment sm:text-6xl">{game.title}</h1>
              {game.tagline ? <p className="mt-3 text-xl text-gold">{game.tagline}</p> : null}
              <div className="mt-5 flex flex-wrap items-center gap-2">
                <DifficultyBadge difficulty={game.difficulty} tone="detail" />
                <Badge variant="outline">
                  <Clock aria-hidden />
                  Unlimited Time
                </Badge>
                <Badge variant="outline">{game.category}</Badge>
              </div>
              <p className="mt-6 max-w-2xl text-lg text-parchment-dim">{game.description}</p>
              {game.players ? <p className="mt-3 text-sm text-parchment-dim">{game.players}</p> : null}
              {world ? <WorldCredits world={world} signedIn={Boolean(viewer)} /> : null}
              {moderation ? (
                <div className="mt-6">
                  <WorldModerationNotice notice={moderation} />
                </div>
              ) : null}
              <ButtonGroup className="mt-8">
                <Button asChild size="lg">
                  <Link to={playPath}>
                    <Play aria-hidden />
                    Start Playing Now
                  </Link>
                </Button>
                {hasGuide ? (
                  <Button asChild size="lg" variant="outline">
                    <Link to={`/game/${game.slug}/guide`}>
                      <BookOpen aria-hidden />
                      Strategy Guide
                    </Link>
                  </Button>
                ) : null}
              </ButtonGroup>
              {world && !world.ownWorld ? <ReportWorld worldId={world.id} signedIn={Boolean(viewer)} /> : null}
            </div>
            <aside aria-labelledby="features-heading" className="self-start lg:col-start-2">
              <Panel>
                <h2 id="features-heading" className="text-2xl text-parchment">
                  Game Features
                </h2>
                <ul className="mt-4 space-y-3">
                  {GAME_FEATURES.map((feature) => (
                    <li key={feature} className="flex items-center gap-3 text-parchment">
                      <Check className="size-4 shrink-0 text-gold" strokeWidth={2} aria-hidden />
                      {feature}
                    </li>
                  ))}
                </ul>
                <div className="mt-6 border-t border-ink-line pt-5">
                  <DifficultyBadge difficulty={game.difficulty} tone="detail" />
                  <p className="mt-2 text-sm text-parchment-dim">{DIFFICULTY_NOTES[game.difficulty]}</p>
                </div>
              </Panel>
            </aside>
          </div>
        </div>
      </header>

      <section aria-labelledby="preview-heading" className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <div className="grid gap-10 lg:grid-cols-[1fr_20rem]">
          <div className="min-w-0">
            <SectionHeading
              id="preview-heading"
              title="Try a Preview"
              description="Type what you would do first: the story's opening scene answers it, free and without an account. Sign in and the Game Master goes on from there."
            />
            <PreviewChat game={game} signedIn={Boolean(viewer)} />
          </div>
          <Panel className="hidden self-end lg:block">
            <h3 className="text-xl text-parchment">Ready for the real story?</h3>
            <p className="mt-2 text-sm text-parchment-dim">
              In the full game the Game Master remembers every decision, tracks your standing and writes each reply for you alone.
            </p>
            <Button asChild className="mt-5 w-full">
              <Link to={playPath}>Start Playing Now</Link>
            </Button>
          </Panel>
        </div>
      </section>

      <PageSection id="introduction" tone="shaded" title="Game Introduction" description={game.description}>
        <div className="grid gap-12 lg:grid-cols-[minmax(0,1fr)_15rem]">
          <div className="space-y-14">
            {introduction.map((section) => (
              <div key={section.heading}>
                <h3 id={anchor(section.heading)} className="scroll-mt-24 text-3xl text-gold">
                  {section.heading}
                </h3>
                <RichText html={section.html} className="mt-4 [&_h4]:font-display [&_h4]:text-2xl [&_h4]:font-bold" />
              </div>
            ))}
          </div>
          {introduction.length > 1 ? (
            <nav aria-label="Game introduction" className="hidden lg:block">
              <div className="sticky top-24 rounded-[var(--radius-card)] border border-ink-line bg-ink p-5">
                <p className="text-xs font-semibold tracking-wider text-parchment-dim uppercase">On this page</p>
                <ul className="mt-3 space-y-2 text-sm">
                  {introduction.map((section) => (
                    <li key={section.heading}>
                      <a href={`#${anchor(section.heading)}`} className="rounded-sm text-parchment hover:text-gold">
                        {section.heading}
                      </a>
                    </li>
                  ))}
                  <li>
                    <a href="#how-to-play-heading" className="rounded-sm text-parchment hover:text-gold">
                      How to Play
                    </a>
                  </li>
                  {hasStrategy ? (
                    <li>
                      <a href="#strategy-heading" className="rounded-sm text-parchment hover:text-gold">
                        Strategy & Tips
                      </a>
                    </li>
                  ) : null}
                  <li>
                    <a href="#faq-heading" className="rounded-sm text-parchment hover:text-gold">
                      FAQ
                    </a>
                  </li>
                </ul>
              </div>
            </nav>
          ) : null}
        </div>
      </PageSection>

      <PageSection id="how-to-play" title="How to Play">
        <ol className="grid gap-5 md:grid-cols-2 lg:grid-cols-4">
          {HOW_TO_PLAY.map((step, index) => (
            <li key={step.title} className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6">
              <span aria-hidden className="grid size-10 place-items-center rounded-full bg-gold font-display text-xl font-bold text-ink">
                {index + 1}
              </span>
              <h3 className="mt-4 font-sans text-base font-semibold text-parchment">{step.title}</h3>
              <p className="mt-2 text-sm text-parchment-dim">{step.text}</p>
            </li>
          ))}
        </ol>
        {mechanics.length > 0 ? (
          <>
            <h3 className="mt-14 text-3xl text-parchment">Game Mechanics</h3>
            <div className="mt-6 grid gap-5 lg:grid-cols-3">
              {mechanics.map((section) => {
                const Icon = MECHANIC_ICONS[section.heading as keyof typeof MECHANIC_ICONS];
                return (
                  <Panel key={section.heading}>
                    <h4 className="flex items-center gap-2 font-display text-2xl font-bold text-gold">
                      <Icon className="size-5" strokeWidth={1.75} aria-hidden />
                      {section.heading}
                    </h4>
                    <RichText html={section.html} className={BOX_PROSE} />
                  </Panel>
                );
              })}
            </div>
          </>
        ) : null}
      </PageSection>

      {/* A section with nothing published in it is left out, heading and all. */}
      {hasStrategy ? (
        <PageSection id="strategy" tone="shaded" title="Strategy & Tips">
          {strategy.length > 0 ? (
            <div className="grid gap-5 lg:grid-cols-3">
              {strategy.map((section) => {
                const Icon = STRATEGY_ICONS[section.heading as keyof typeof STRATEGY_ICONS];
                return (
                  <Panel key={section.heading} className="bg-ink">
                    <h3 className="flex items-center gap-2 text-2xl text-gold">
                      <Icon className="size-5" strokeWidth={1.75} aria-hidden />
                      {section.heading}
                    </h3>
                    <RichText html={section.html} className={BOX_PROSE} />
                  </Panel>
                );
              })}
            </div>
          ) : null}
          {hasGuide || hasTips ? (
            <ButtonGroup className="mt-8">
              {hasGuide ? (
                <Button asChild variant="outline">
                  <Link to={`/game/${game.slug}/guide`}>
                    <BookOpen aria-hidden />
                    Read the Complete Guide
                  </Link>
                </Button>
              ) : null}
              {hasTips ? (
                <Button asChild variant="outline">
                  <Link to={`/game/${game.slug}/tips`}>
                    <Lightbulb aria-hidden />
                    Pro Tips & Tricks
                  </Link>
                </Button>
              ) : null}
            </ButtonGroup>
          ) : null}
        </PageSection>
      ) : null}

      <section aria-labelledby="faq-heading" className="mx-auto max-w-4xl px-4 py-14 sm:px-6">
        <SectionHeading id="faq-heading" title="Frequently Asked Questions" />
        <FaqList items={gamePageFaq(game.title, game.difficulty)} />
      </section>

      <section className="border-t border-ink-line bg-gradient-to-b from-ink to-plum/25">
        <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-16 text-center">
          <GameIcon name={game.icon} />
          <p className="mt-5 font-display text-4xl font-bold text-parchment">Your story in {game.title} begins now</p>
          <Button asChild size="lg" className="mt-8">
            <Link to={playPath}>Start Playing Now</Link>
          </Button>
        </div>
      </section>
    </article>
  );
}
