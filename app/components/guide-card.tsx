import { ArrowRight, Clock, Star } from "lucide-react";
import { Link } from "react-router";
import type { GuideCategory, GuideDifficulty } from "#app/lib/constants.ts";
import { capitalize } from "#app/lib/utils.ts";
import { Badge } from "./ui/badge.tsx";

export interface GuideCardData {
  slug: string;
  title: string;
  description: string;
  category: GuideCategory;
  difficulty: GuideDifficulty;
  readTimeMinutes: number;
  featured: boolean;
}

export function readTime(minutes: number) {
  return `${minutes} min read`;
}

/** A guide in a list: the whole card links to /guides/{slug}. */
export function GuideCard({ guide }: { guide: GuideCardData }) {
  return (
    <article className="group relative flex flex-col rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-6 transition-colors hover:border-gold/50">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant="outline">{capitalize(guide.category)}</Badge>
        <Badge variant="outline">{capitalize(guide.difficulty)}</Badge>
        {guide.featured ? (
          <Badge>
            <Star aria-hidden />
            Featured
          </Badge>
        ) : null}
      </div>
      <h3 className="mt-4 text-2xl text-parchment">
        <Link
          to={`/guides/${guide.slug}`}
          className="after:absolute after:inset-0 after:rounded-[var(--radius-card)] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-gold"
        >
          {guide.title}
        </Link>
      </h3>
      <p className="mt-3 text-sm text-parchment-dim">{guide.description}</p>
      <div className="mt-auto flex items-center justify-between pt-5 text-sm">
        <span className="inline-flex items-center gap-1.5 text-parchment-dim">
          <Clock className="size-4" strokeWidth={1.75} aria-hidden />
          {readTime(guide.readTimeMinutes)}
        </span>
        <span aria-hidden className="inline-flex items-center gap-1 font-medium text-gold">
          Read guide
          <ArrowRight className="size-4 transition-transform group-hover:translate-x-1" />
        </span>
      </div>
    </article>
  );
}
