import { ArrowRight, Crown, Users, Zap } from "lucide-react";
import { Link } from "react-router";
import { GameCard } from "#app/components/game-card.tsx";
import { SectionHeading } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { listFeaturedGames } from "#app/domain/games.server.ts";
import { CREDITS_PER_MESSAGE, STARTER_CREDITS } from "#app/lib/constants.ts";
import { pageMeta, webSiteJsonLd } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import type { Route } from "./+types/home";

export async function loader() {
  return { games: await listFeaturedGames() };
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ matches }) => {
  const { site } = matches[0].loaderData;
  return pageMeta(site, {
    title: `${site.name} — AI Interactive Story Games`,
    fullTitle: true,
    description: "Play as an empress, a cultivator or a rising star in interactive text adventures narrated by an AI Game Master. Free to start.",
    path: "/",
    jsonLd: [webSiteJsonLd(site)],
  });
};

const FEATURES = [
  {
    icon: Crown,
    title: "Become Your Character",
    text: "Step into the silk robes of a regent empress, the worn sandals of an outer-sect disciple or the spotlight of a rising star. You decide what they say and do; the story remembers.",
  },
  {
    icon: Zap,
    title: "Instant Play",
    text: "No downloads and no rulebooks. Pick a role and the Game Master sets the scene in seconds, then answers every move as it streams onto your screen.",
  },
  {
    icon: Users,
    title: "Multiple Roles",
    text: "Court intrigue, cultivation, showbiz and campus comedy: switch between worlds whenever you like, each with its own characters, stakes and ways to win.",
  },
] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  const { site, viewer } = useRootData();
  return (
    <>
      <section className="relative overflow-hidden bg-gradient-to-b from-ink via-ink to-plum/20">
        <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-24 text-center sm:py-32">
          <div aria-hidden className="mb-8 h-px w-40 bg-gradient-to-r from-transparent via-gold to-transparent" />
          <h1 className="text-5xl text-parchment sm:text-7xl">Play as Empress</h1>
          <p className="mt-6 max-w-2xl text-lg text-parchment-dim">
            Take the throne, climb the realms of cultivation or chase stardom. An AI Game Master narrates every choice you make in stories that
            remember what you did.
          </p>
          <div className="mt-10 flex flex-wrap justify-center gap-4">
            <Button asChild size="lg">
              <Link to="/games">Start Playing</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/about">
                Learn More
                {/* Search engines rate a link by its own words; "Learn More" alone says nothing of where it leads. */}
                <span className="sr-only"> about {site.name}</span>
              </Link>
            </Button>
          </div>
        </div>
      </section>

      <section aria-labelledby="features-heading" className="border-y border-ink-line bg-ink-raised/40">
        <div className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
          <h2 id="features-heading" className="sr-only">
            Why players love it
          </h2>
          <ul className="grid gap-6 md:grid-cols-3">
            {FEATURES.map(({ icon: Icon, title, text }) => (
              <li key={title} className="rounded-[var(--radius-card)] border border-ink-line bg-ink p-7">
                <span aria-hidden className="grid size-12 place-items-center rounded-full border border-gold/60 text-gold">
                  <Icon className="size-6" strokeWidth={1.75} />
                </span>
                <h3 className="mt-5 text-2xl text-parchment">{title}</h3>
                <p className="mt-3 text-parchment-dim">{text}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section aria-labelledby="roles-heading" className="mx-auto max-w-6xl px-4 py-20 sm:px-6">
        <SectionHeading
          id="roles-heading"
          title="Choose Your Role"
          description="Every story starts with a single decision: who will you be? Here are three of our most loved adventures."
        />
        {loaderData.games.length > 0 ? (
          <div className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {loaderData.games.map((game) => (
              <GameCard key={game.slug} game={game} />
            ))}
          </div>
        ) : (
          <p className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-8 text-center text-parchment-dim">
            New adventures are being written. Check back soon.
          </p>
        )}
        <div className="mt-10 flex justify-center">
          <Button asChild variant="outline" size="lg">
            <Link to="/games">
              View All Games
              <ArrowRight aria-hidden />
            </Link>
          </Button>
        </div>
      </section>

      <section aria-labelledby="cta-heading" className="border-t border-ink-line bg-gradient-to-b from-ink to-plum/25">
        <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-20 text-center">
          <div aria-hidden className="mb-6 h-px w-24 bg-gradient-to-r from-transparent via-gold to-transparent" />
          <h2 id="cta-heading" className="text-4xl text-parchment sm:text-5xl">
            Your story is waiting
          </h2>
          <p className="mt-4 text-lg text-parchment-dim">
            {viewer
              ? "Pick up where you left off, or begin a new life in another world."
              : `Create a free account and receive ${STARTER_CREDITS} free credits. Each message to the Game Master costs ${CREDITS_PER_MESSAGE} credit.`}
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-4">
            {viewer ? (
              <Button asChild size="lg">
                <Link to="/games">Browse Games</Link>
              </Button>
            ) : (
              <>
                <Button asChild size="lg">
                  <Link to="/auth">Create Free Account</Link>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <Link to="/guides/getting-started">Read the Beginner's Guide</Link>
                </Button>
              </>
            )}
          </div>
        </div>
      </section>
    </>
  );
}
