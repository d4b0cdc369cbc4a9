import { Briefcase, Rocket, Wand2, X } from "lucide-react";
import { data, Link, useNavigation } from "react-router";
import { ComingSoonCard } from "#app/components/coming-soon-card.tsx";
import { GameCard, GameCardSkeletons } from "#app/components/game-card.tsx";
import { GAMES_FAILED_TEXT, GAMES_FAILED_TITLE, GameListMessage } from "#app/components/game-list-states.tsx";
import { GameSearchForm } from "#app/components/game-search-form.tsx";
import { PageHeader, SectionHeading } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { CommunitySection } from "#app/components/community-section.tsx";
import { listCommunityWorlds, viewerSeesMature } from "#app/domain/community.server.ts";
import { listActiveGames, normalizeSearch } from "#app/domain/games.server.ts";
import { DIFFICULTIES, parseDifficulty, type Difficulty } from "#app/lib/constants.ts";
import { breadcrumbJsonLd, pageMeta } from "#app/lib/seo.ts";
import { cn } from "#app/lib/utils.ts";
import { COMMUNITY_SORTS, CONTENT_RATINGS, WORLD_LIMITS, type CommunitySort, type ContentRating } from "#app/lib/worlds.ts";
import { cacheForVisitors, visitorQuery } from "#app/lib/visitor-cache.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/games";

/** What the page reads from its address: the visitor cache keeps a page per value of these, and no others (docs/decisions/042). */
const gamesQuery = visitorQuery("difficulty", "search", "sort", "tag", "rating");

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = gamesQuery.read(request);
  const difficulty = parseDifficulty(query.difficulty ?? undefined) ?? null;
  const search = normalizeSearch(query.search) ?? null;
  const community = {
    sort: COMMUNITY_SORTS.find((sort) => sort === query.sort) ?? "trending",
    tag: query.tag?.trim().toLowerCase().slice(0, WORLD_LIMITS.tag) || null,
    rating: CONTENT_RATINGS.find((rating) => rating === query.rating) ?? null,
  };
  try {
    // A visitor's page never lists a Mature world, so the page kept for visitors never holds one (docs/decisions/059).
    const showMature = await viewerSeesMature(request);
    const [games, worlds] = await Promise.all([
      listActiveGames({ difficulty: difficulty ?? undefined, search: search ?? undefined }),
      listCommunityWorlds({
        sort: community.sort,
        tag: community.tag ?? undefined,
        rating: community.rating ?? undefined,
        search: search ?? undefined,
        showMature,
      }),
    ]);
    return { games, worlds, community, showMature, difficulty, search, failed: false };
  } catch (error) {
    context.get(requestContext).logger.error({ err: error }, "the games list failed to load");
    return data({ games: [], worlds: [], community, showMature: false, difficulty, search, failed: true }, { status: 503 });
  }
}

export const headers = () => cacheForVisitors({ query: gamesQuery });

interface CommunityFilters {
  sort?: CommunitySort;
  tag?: string | null;
  rating?: ContentRating | null;
}

/** /games with the filters that change what it shows; the filter value is lower case in URLs. */
function gamesHref({ difficulty, search, sort, tag, rating }: { difficulty?: Difficulty | null; search?: string | null } & CommunityFilters) {
  const query = new URLSearchParams();
  if (difficulty) query.set("difficulty", difficulty.toLowerCase());
  if (search) query.set("search", search);
  if (sort && sort !== "trending") query.set("sort", sort);
  if (tag) query.set("tag", tag);
  if (rating) query.set("rating", rating);
  const text = query.toString();
  return text ? `/games?${text}` : "/games";
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  const { difficulty, search } = loaderData;
  const subject = difficulty ? `${difficulty} Games` : "All Games";
  return pageMeta(site, {
    title: search ? `Search results for “${search}”` : `${subject} — Interactive AI Story Adventures`,
    description: `Browse ${difficulty ? `${difficulty.toLowerCase()} ` : ""}interactive text adventures narrated by an AI Game Master: rule an empire, cultivate immortality, chase fame or take over campus. Free to start.`,
    path: gamesHref({ difficulty }),
    noindex: Boolean(search),
    jsonLd: [
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        { name: "Games", path: "/games" },
      ]),
    ],
  });
};

const COMING_SOON = [
  {
    icon: Rocket,
    title: "Space Explorer",
    description: "Captain a battered survey ship at the edge of charted space, where every jump could find a new world or a final one.",
  },
  {
    icon: Wand2,
    title: "Magic Academy",
    description: "Enrol at an ancient school of spellcraft, master forbidden lessons and uncover what the headmistress is hiding.",
  },
  {
    icon: Briefcase,
    title: "Corporate Tycoon",
    description: "Turn a struggling start-up into an empire through boardroom deals, rival takeovers and a few risky bets.",
  },
] as const;

export default function Games({ loaderData }: Route.ComponentProps) {
  const { games, worlds, community, showMature, difficulty, search, failed } = loaderData;
  const navigation = useNavigation();
  const loadingGames = navigation.state === "loading" && navigation.location.pathname === "/games";
  const filters = [null, ...DIFFICULTIES] as const;

  return (
    <>
      <PageHeader
        eyebrow="Game Library"
        title="Choose Your Adventure"
        description="Every game is a story you steer. Filter by difficulty, search for a world you like, and open a game to learn its setting before you play."
      >
        <GameSearchForm search={search} difficulty={difficulty?.toLowerCase()} className="mt-8" />
      </PageHeader>

      <section aria-labelledby="games-heading" className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="games-heading" className="sr-only">
          Games
        </h2>
        {/* One segmented row: at 375 px separate pills would wrap and leave "Advanced" on a line of its own. */}
        <nav
          aria-label="Filter by difficulty"
          className="flex w-full rounded-full border border-ink-line bg-ink-raised p-1 sm:inline-flex sm:w-auto"
        >
          {filters.map((level) => {
            const active = level === difficulty;
            return (
              <Link
                key={level ?? "all"}
                to={gamesHref({ difficulty: level, search })}
                aria-current={active ? "page" : undefined}
                preventScrollReset
                className={cn(
                  "flex-auto rounded-full px-2.5 py-1.5 text-center text-sm font-medium transition-colors sm:flex-none sm:px-4",
                  active ? "bg-gold text-ink" : "text-parchment-dim hover:bg-ink hover:text-parchment",
                )}
              >
                {level ?? "All"}
              </Link>
            );
          })}
        </nav>

        {search && !failed ? (
          <p className="mt-6 flex flex-wrap items-center gap-3 text-parchment-dim" role="status">
            <span>
              {games.length === 1 ? "1 game" : `${games.length} games`} matching “<span className="text-parchment">{search}</span>”
            </span>
            <Link to={gamesHref({ difficulty })} className="inline-flex items-center gap-1 rounded-sm text-sm text-gold hover:underline">
              <X className="size-3.5" aria-hidden />
              Clear search
            </Link>
          </p>
        ) : null}

        <div className="mt-8">
          {loadingGames ? (
            <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading games">
              <GameCardSkeletons count={6} />
            </div>
          ) : failed ? (
            <GameListMessage
              tone="error"
              title={GAMES_FAILED_TITLE}
              actions={
                <Button asChild variant="outline">
                  <a href={gamesHref({ difficulty, search })}>Try again</a>
                </Button>
              }
            >
              {GAMES_FAILED_TEXT}
            </GameListMessage>
          ) : games.length === 0 ? (
            <GameListMessage
              tone="empty"
              title="No games found"
              actions={
                <Button asChild variant="outline">
                  <Link to="/games">Show all games</Link>
                </Button>
              }
            >
              Try adjusting your filters to see more games.
            </GameListMessage>
          ) : (
            <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
              {games.map((game, index) => (
                <GameCard key={game.slug} game={game} priority={index === 0} />
              ))}
            </div>
          )}
        </div>
      </section>

      <CommunitySection
        worlds={worlds}
        filters={community}
        showMature={showMature}
        href={(change) => gamesHref({ difficulty, search, ...community, ...change })}
        search={search}
      />

      <section aria-labelledby="coming-soon-heading" className="border-t border-ink-line bg-ink-raised/30">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <SectionHeading
            id="coming-soon-heading"
            title="More Adventures Coming Soon"
            description="Our writers are building new worlds. These are next in line."
          />
          <div className="grid gap-6 md:grid-cols-3">
            {COMING_SOON.map((teaser) => (
              <ComingSoonCard key={teaser.title} {...teaser} />
            ))}
          </div>
        </div>
      </section>
    </>
  );
}
