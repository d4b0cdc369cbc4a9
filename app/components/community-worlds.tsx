import { Link } from "react-router";
import { GameCard } from "#app/components/game-card.tsx";
import { WorldFigures } from "#app/components/world-credits.tsx";
import { cn } from "#app/lib/utils.ts";
import { COMMUNITY_SORTS, type CommunitySort, type ContentRating } from "#app/lib/worlds.ts";

export interface CommunityCard {
  slug: string;
  title: string;
  tagline: string | null;
  description: string;
  icon: string;
  difficulty: "Beginner" | "Intermediate" | "Advanced";
  players: string | null;
  coverHash: string | null;
  contentRating: ContentRating;
  creatorName: string;
  creatorHandle: string | null;
  likes: number;
  plays: number;
}

const SORT_LABELS: Record<CommunitySort, string> = { trending: "Trending", top: "Top", new: "New" };

/** Players' worlds as cards: each names its creator (a link to their page), its rating when not Everyone, its plays and likes. */
export function CommunityGrid({ worlds }: { worlds: readonly CommunityCard[] }) {
  return (
    <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
      {worlds.map((world) => (
        <GameCard
          key={world.slug}
          game={world}
          byline={
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <span className="text-parchment-dim">
                by{" "}
                {world.creatorHandle ? (
                  <Link to={`/creators/${world.creatorHandle}`} className="text-parchment underline underline-offset-4">
                    {world.creatorName}
                  </Link>
                ) : (
                  world.creatorName
                )}
              </span>
              {world.contentRating === "Everyone" ? null : (
                <span className="rounded-full border border-ink-line px-2 py-0.5 text-xs text-parchment-dim">{world.contentRating}</span>
              )}
              <WorldFigures plays={world.plays} likes={world.likes} />
            </div>
          }
        />
      ))}
    </div>
  );
}

/** Community's orders as links that keep the other filters. */
export function CommunitySortNav({ current, href }: { current: CommunitySort; href: (sort: CommunitySort) => string }) {
  return (
    <nav aria-label="Sort community worlds" className="inline-flex rounded-full border border-ink-line bg-ink-raised p-1">
      {COMMUNITY_SORTS.map((sort) => (
        <Link
          key={sort}
          to={href(sort)}
          aria-current={sort === current ? "page" : undefined}
          preventScrollReset
          className={cn(
            "rounded-full px-4 py-1.5 text-sm font-medium transition-colors",
            sort === current ? "bg-gold text-ink" : "text-parchment-dim hover:bg-ink hover:text-parchment",
          )}
        >
          {SORT_LABELS[sort]}
        </Link>
      ))}
    </nav>
  );
}
