import { GitFork, Heart, Play } from "lucide-react";
import { Form, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import type { RemixCredit } from "#app/lib/worlds.ts";

export interface WorldCreditsData {
  id: string;
  creatorName: string;
  creatorHandle: string | null;
  likes: number;
  plays: number;
  liked: boolean;
  ownWorld: boolean;
  remixable: boolean;
  remixedFrom: RemixCredit[];
}

function count(value: number, one: string, many: string) {
  return `${value.toLocaleString("en-US")} ${value === 1 ? one : many}`;
}

/** A player's world on its page: who made it, its plays and likes, Like and Remix, and whose world it was remixed from. */
export function WorldCredits({ world, signedIn }: { world: WorldCreditsData; signedIn: boolean }) {
  return (
    <section aria-label="About this world" className="mt-6 space-y-4">
      <p className="text-parchment">
        A world by{" "}
        {world.creatorHandle ? (
          <Link to={`/creators/${world.creatorHandle}`} className="text-gold underline underline-offset-4">
            {world.creatorName}
          </Link>
        ) : (
          world.creatorName
        )}
        <span className="text-parchment-dim">
          {" · "}
          {count(world.plays, "play", "plays")} · {count(world.likes, "like", "likes")}
        </span>
      </p>
      {world.remixedFrom.length > 0 ? <RemixCredits credits={world.remixedFrom} /> : null}
      {signedIn ? (
        <div className="flex flex-wrap gap-3">
          <Form method="post" action={`/worlds/${world.id}/like`}>
            <Button type="submit" variant="outline" aria-pressed={world.liked}>
              <Heart aria-hidden className={world.liked ? "fill-current text-gold" : undefined} />
              Like
            </Button>
          </Form>
          {world.remixable && !world.ownWorld ? (
            <Form method="post" action={`/worlds/${world.id}/remix`}>
              <Button type="submit" variant="outline">
                <GitFork aria-hidden />
                Remix
              </Button>
            </Form>
          ) : null}
        </div>
      ) : (
        <p className="text-sm text-parchment-dim">
          <Link to="/auth" className="text-gold underline underline-offset-4">
            Sign in
          </Link>{" "}
          to like or remix this world.
        </p>
      )}
    </section>
  );
}

/** "Remixed from {title} by {creator}" for each world a remix came from, nearest first, each a link. */
export function RemixCredits({ credits }: { credits: readonly RemixCredit[] }) {
  return (
    <ul aria-label="Remix credits" className="space-y-1 text-sm text-parchment-dim">
      {credits.map((credit) => (
        <li key={credit.slug}>
          Remixed from{" "}
          <Link to={`/game/${credit.slug}`} className="text-parchment underline underline-offset-4">
            {credit.title}
          </Link>{" "}
          by{" "}
          <Link to={`/creators/${credit.creatorHandle}`} className="text-parchment underline underline-offset-4">
            {credit.creatorName}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** Plays and likes on a Community card. */
export function WorldFigures({ plays, likes }: { plays: number; likes: number }) {
  return (
    <span className="inline-flex items-center gap-3 text-sm text-parchment-dim">
      <span className="inline-flex items-center gap-1">
        <Play aria-hidden className="size-3.5" />
        {count(plays, "play", "plays")}
      </span>
      <span className="inline-flex items-center gap-1">
        <Heart aria-hidden className="size-3.5" />
        {count(likes, "like", "likes")}
      </span>
    </span>
  );
}
