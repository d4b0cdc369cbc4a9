import { ArrowRight, Clock } from "lucide-react";
import { Link } from "react-router";
import { cn } from "#app/lib/utils.ts";
import { readTime } from "./guide-card.tsx";
import { Badge } from "./ui/badge.tsx";

export interface BlogCardData {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  readTimeMinutes: number;
  publishedAt: string;
}

export function formatDate(isoDate: string, month: "long" | "short" = "long") {
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month, day: "numeric", timeZone: "UTC" }).format(new Date(isoDate));
}

/** An article in the blog's lists; the whole card links to /blog/{slug}. */
export function BlogCard({ post, featured = false }: { post: BlogCardData; featured?: boolean }) {
  return (
    <article
      className={cn(
        "group relative flex flex-col rounded-[var(--radius-card)] border bg-ink-raised p-6 transition-colors hover:border-gold/60",
        featured ? "border-gold/40 bg-gradient-to-br from-plum/30 to-ink-raised sm:p-8" : "border-ink-line",
      )}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-parchment-dim">
        <Badge variant={featured ? "default" : "outline"}>{post.category}</Badge>
        <span className="inline-flex items-center gap-1.5">
          <Clock className="size-4" strokeWidth={1.75} aria-hidden />
          {readTime(post.readTimeMinutes)}
        </span>
        {/* The short month keeps category, read time and date on one line in a phone-wide card. */}
        <time dateTime={post.publishedAt}>{formatDate(post.publishedAt, "short")}</time>
      </div>
      <h3 className={cn("mt-4 text-parchment", featured ? "text-3xl" : "text-2xl")}>
        <Link
          to={`/blog/${post.slug}`}
          className="after:absolute after:inset-0 after:rounded-[var(--radius-card)] focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-offset-2 focus-visible:after:outline-gold"
        >
          {post.title}
        </Link>
      </h3>
      <p className="mt-3 text-parchment-dim">{post.excerpt}</p>
      <span aria-hidden className="mt-auto inline-flex items-center gap-1 pt-5 text-sm font-medium text-gold">
        Read article
        <ArrowRight className="size-4 transition-transform group-hover:translate-x-1" />
      </span>
    </article>
  );
}
