import { Link } from "react-router";
import { CommunityGrid, CommunitySortNav, type CommunityCard } from "#app/components/community-worlds.tsx";
import { GameListMessage } from "#app/components/game-list-states.tsx";
import { SectionHeading } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { fieldClassName, Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { CONTENT_RATINGS, type CommunitySort, type ContentRating } from "#app/lib/worlds.ts";

interface Filters {
  sort: CommunitySort;
  tag: string | null;
  rating: ContentRating | null;
}

/** /games' Community: players' Public worlds, sorted and filtered by tag and rating (the search above applies too). */
export function CommunitySection({
  worlds,
  filters,
  showMature,
  href,
  search,
}: {
  worlds: readonly CommunityCard[];
  filters: Filters;
  showMature: boolean;
  href: (change: Partial<Filters>) => string;
  search: string | null;
}) {
  const ratings = showMature ? CONTENT_RATINGS : CONTENT_RATINGS.filter((rating) => rating !== "Mature");
  return (
    <section aria-labelledby="community-heading" className="border-t border-ink-line">
      <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <SectionHeading
          id="community-heading"
          title="Community"
          description="Worlds made by players. Make your own on Create a world, or remix one you like."
        />
        <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
          <CommunitySortNav current={filters.sort} href={(sort) => href({ sort })} />
          <form method="get" action="/games" className="flex flex-wrap items-end gap-3">
            {search ? <input type="hidden" name="search" value={search} /> : null}
            {filters.sort === "trending" ? null : <input type="hidden" name="sort" value={filters.sort} />}
            <div className="flex flex-col gap-1">
              <Label htmlFor="community-tag">Tag</Label>
              <Input id="community-tag" name="tag" defaultValue={filters.tag ?? ""} placeholder="court intrigue" className="w-44" />
            </div>
            <div className="flex flex-col gap-1">
              <Label htmlFor="community-rating">Rating</Label>
              <select id="community-rating" name="rating" defaultValue={filters.rating ?? ""} className={`${fieldClassName} h-11 w-36`}>
                <option value="">Any rating</option>
                {ratings.map((rating) => (
                  <option key={rating} value={rating}>
                    {rating}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" variant="outline">
              Filter worlds
            </Button>
          </form>
        </div>
        <div className="mt-8">
          {worlds.length === 0 ? (
            <GameListMessage
              tone="empty"
              title="No community worlds here yet"
              actions={
                <Button asChild variant="outline">
                  <Link to="/create">Create a world</Link>
                </Button>
              }
            >
              {filters.tag || filters.rating || search ? "No Public world matches these filters." : "Be the first to publish one."}
            </GameListMessage>
          ) : (
            <CommunityGrid worlds={worlds} />
          )}
        </div>
        {showMature ? null : (
          <p className="mt-6 text-sm text-parchment-dim">
            Mature worlds are shown only to signed-in players who confirm their age in their{" "}
            <Link to="/settings" className="text-gold underline underline-offset-4">
              settings
            </Link>
            .
          </p>
        )}
      </div>
    </section>
  );
}
