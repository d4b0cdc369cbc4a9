import { Users } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Difficulty } from "#app/lib/constants.ts";
import { CARD_COVER_SIZES, CoverPicture } from "./cover-picture.tsx";
import { DifficultyBadge } from "./difficulty-badge.tsx";
import { GameIcon } from "./game-icon.tsx";
import { Button } from "./ui/button.tsx";
import { Skeleton } from "./ui/skeleton.tsx";

export interface GameCardData {
  slug: string;
  title: string;
  tagline: string | null;
  description: string;
  icon: string;
  difficulty: Difficulty;
  players: string | null;
  coverHash: string | null;
}

/** SPEC's game card under its cover: icon, difficulty badge, title, optional tagline, description, optional players, Play. */
export function GameCard({
  game,
  headingLevel = 3,
  priority = false,
  byline,
}: {
  game: GameCardData;
  headingLevel?: 2 | 3;
  priority?: boolean;
  /** A player's world's creator and figures, under its description. */
  byline?: ReactNode;
}) {
  const href = `/game/${game.slug}`;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article
      className="group relative flex flex-col rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6 transition-colors duration-150 hover:border-gold/50"
      data-testid="game-card"
    >
      <div className="-mx-6 -mt-6 mb-5 overflow-hidden rounded-t-[calc(var(--radius-card)-1px)] border-b border-ink-line">
        <CoverPicture game={game} sizes={CARD_COVER_SIZES} priority={priority} />
      </div>
      <div className="flex items-start justify-between gap-3">
        <GameIcon name={game.icon} />
        <DifficultyBadge difficulty={game.difficulty} />
      </div>
      <Heading className="mt-5 text-2xl text-parchment">
        <Link
          to={href}
          prefetch="intent"
          className="after:absolute after:inset-0 after:rounded-[var(--radius-card)] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-gold"
        >
          {game.title}
        </Link>
      </Heading>
      {game.tagline ? <p className="mt-1 text-sm font-medium text-gold">{game.tagline}</p> : null}
      <p className="mt-3 line-clamp-2 text-sm text-parchment-dim">{game.description}</p>
      {byline ? <div className="relative z-10 mt-3">{byline}</div> : null}
      {game.players ? (
        <p className="mt-3 inline-flex items-center gap-1.5 text-xs text-parchment-dim">
          <Users className="size-3.5" strokeWidth={1.75} aria-hidden />
          {game.players}
        </p>
      ) : null}
      <div className="mt-auto pt-5">
        <Button asChild className="relative z-10 w-full">
          <Link to={href} aria-label={`Play ${game.title}`}>
            Play
          </Link>
        </Button>
      </div>
    </article>
  );
}

/** Placeholders while games load in the browser (client-side navigation only; pages render on the server). */
export function GameCardSkeletons({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <div
          key={index}
          className="flex flex-col rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6"
          data-testid="game-card-skeleton"
        >
          <Skeleton className="-mx-6 -mt-6 mb-5 aspect-video rounded-none rounded-t-[var(--radius-card)]" />
          <div className="flex items-start justify-between">
            <Skeleton className="size-12 rounded-full" />
            <Skeleton className="h-5 w-20 rounded-full" />
          </div>
          <Skeleton className="mt-5 h-7 w-2/3" />
          <Skeleton className="mt-3 h-4 w-1/2" />
          <Skeleton className="mt-4 h-4 w-full" />
          <Skeleton className="mt-2 h-4 w-5/6" />
          <Skeleton className="mt-6 h-10 w-full rounded-full" />
        </div>
      ))}
    </>
  );
}
