import { Clock, Tag, UserRound } from "lucide-react";
import { data, Link } from "react-router";
import { formatDate } from "#app/components/blog-card.tsx";
import { BackLinkWithBreadcrumbs } from "#app/components/breadcrumbs.tsx";
import { readTime } from "#app/components/guide-card.tsx";
import { NotFoundPage } from "#app/components/not-found-page.tsx";
import { renderMarkdown } from "#app/components/render-markdown.server.tsx";
import { RichText } from "#app/components/rich-text.tsx";
import { ShareButton } from "#app/components/share-button.tsx";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { getBlogPost, summarize } from "#app/domain/blog.server.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import { absoluteUrl, articleJsonLd, breadcrumbJsonLd, pageMeta, type Crumb } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import type { Route } from "./+types/blog-post";

export function loader({ params }: Route.LoaderArgs) {
  const post = getBlogPost(params.slug);
  // Unlike guides, an unknown article is a real 404 (PRODUCT.md).
  if (!post) return data({ post: null }, { status: 404 });
  return { post: { ...summarize(post), html: renderMarkdown(post.body) } };
}

export const headers = () => cacheForVisitors();

function crumbs(post: { slug: string; title: string }): Crumb[] {
  return [
    { name: "Home", path: "/" },
    { name: "Blog", path: "/blog" },
    { name: post.title, path: `/blog/${post.slug}` },
  ];
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  const { post } = loaderData;
  if (!post) return [{ title: "Page not found" }, { name: "robots", content: "noindex" }];
  const path = `/blog/${post.slug}`;
  const article = { publishedTime: post.publishedAt, author: post.author, section: post.category, tags: post.tags };
  return pageMeta(site, {
    title: post.title,
    description: post.excerpt,
    path,
    type: "article",
    article,
    jsonLd: [articleJsonLd(site, { ...article, path, title: post.title, description: post.excerpt }), breadcrumbJsonLd(site, crumbs(post))],
  });
};

export default function BlogPost({ loaderData }: Route.ComponentProps) {
  const { site, viewer } = useRootData();
  const { post } = loaderData;
  if (!post) return <NotFoundPage />;
  return (
    <article>
      <header className="border-b border-ink-line bg-gradient-to-b from-plum/20 to-ink">
        <div className="mx-auto max-w-4xl px-4 py-10 sm:px-6 sm:py-14">
          <BackLinkWithBreadcrumbs back={{ to: "/blog", label: "Back to Blog" }} crumbs={crumbs(post)} />
          <div className="mt-10 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-parchment-dim">
            <Badge>{post.category}</Badge>
            <span className="inline-flex items-center gap-1.5">
              <Clock className="size-4" strokeWidth={1.75} aria-hidden />
              {readTime(post.readTimeMinutes)}
            </span>
            <time dateTime={post.publishedAt}>{formatDate(post.publishedAt)}</time>
          </div>
          <h1 className="mt-5 text-4xl text-parchment sm:text-6xl">{post.title}</h1>
          <p className="mt-5 text-xl text-parchment-dim">{post.excerpt}</p>
          <div className="mt-8 flex flex-wrap items-center justify-between gap-4 border-t border-ink-line pt-6">
            <p className="inline-flex items-center gap-2 text-parchment">
              <UserRound className="size-5 text-gold" strokeWidth={1.75} aria-hidden />
              <span>
                By <span className="font-semibold">{post.author}</span>
              </span>
            </p>
            <ShareButton title={post.title} url={absoluteUrl(site, `/blog/${post.slug}`)} />
          </div>
        </div>
      </header>

      <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
        <RichText html={post.html} />

        {post.tags.length > 0 ? (
          <div className="mt-12 flex flex-wrap items-center gap-2">
            <Tag className="size-4 text-parchment-dim" strokeWidth={1.75} aria-hidden />
            <span className="sr-only">Tags:</span>
            {post.tags.map((tag) => (
              <Badge key={tag} variant="outline">
                #{tag}
              </Badge>
            ))}
          </div>
        ) : null}

        <aside
          aria-labelledby="post-cta-heading"
          className="mt-12 rounded-[var(--radius-card)] border border-gold/40 bg-gradient-to-br from-plum/30 to-ink-raised p-8 text-center"
        >
          <h2 id="post-cta-heading" className="text-3xl text-parchment">
            Ready to write your own story?
          </h2>
          <p className="mt-3 text-parchment-dim">
            {viewer
              ? "Pick a world and make your first move."
              : `Pick a world and make your first move. New players get ${STARTER_CREDITS} free credits.`}
          </p>
          <Button asChild size="lg" className="mt-6">
            <Link to="/games">Explore Games</Link>
          </Button>
        </aside>
      </div>
    </article>
  );
}
