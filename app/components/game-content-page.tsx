import { ArrowLeft, BookOpen, Lightbulb, Play } from "lucide-react";
import { Link } from "react-router";
import type { Crumb } from "#app/lib/seo.ts";
import { Breadcrumbs } from "./breadcrumbs.tsx";
import { GameIcon } from "./game-icon.tsx";
import { RichText } from "./rich-text.tsx";
import { Button, ButtonGroup } from "./ui/button.tsx";

/** The strategy guide and pro tips pages of a game: one long piece of content and the way back to play. */
export function GameContentPage({
  game,
  crumbs,
  title,
  subtitle,
  html,
  crossLink,
}: {
  game: { slug: string; title: string; icon: string };
  crumbs: readonly Crumb[];
  title: string;
  /** The content record's own title. */
  subtitle: string;
  html: string;
  /** The other page (guide ↔ tips), only when it is published. */
  crossLink: { to: string; label: string; kind: "guide" | "tips" } | null;
}) {
  const actions = (
    <ButtonGroup>
      <Button asChild variant="outline">
        <Link to={`/game/${game.slug}`}>
          <ArrowLeft aria-hidden />
          Back to Game Page
        </Link>
      </Button>
      {crossLink ? (
        <Button asChild variant="outline">
          <Link to={crossLink.to}>
            {crossLink.kind === "tips" ? <Lightbulb aria-hidden /> : <BookOpen aria-hidden />}
            {crossLink.label}
          </Link>
        </Button>
      ) : null}
      <Button asChild>
        <Link to={`/play/${game.slug}`}>
          <Play aria-hidden />
          Start Playing Now
        </Link>
      </Button>
    </ButtonGroup>
  );
  return (
    <article>
      <header className="border-b border-ink-line bg-gradient-to-b from-plum/20 to-ink">
        <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
          <Breadcrumbs crumbs={crumbs} />
          <div className="mt-8 flex items-center gap-4">
            <GameIcon name={game.icon} />
            <p className="font-display text-2xl font-bold text-gold">{game.title}</p>
          </div>
          <h1 className="mt-5 text-4xl text-parchment sm:text-6xl">{title}</h1>
          <p className="mt-4 text-lg text-parchment-dim">{subtitle}</p>
          <div className="mt-8">{actions}</div>
        </div>
      </header>
      <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
        <RichText html={html} />
        <div className="mt-14 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6 sm:p-8">
          <p className="font-display text-2xl font-bold text-parchment">Put it into practice</p>
          <p className="mt-2 mb-6 text-parchment-dim">The best way to learn {game.title} is to play it. Your story is saved as you go.</p>
          {actions}
        </div>
      </div>
    </article>
  );
}
