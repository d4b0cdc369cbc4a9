import { BlogCard } from "#app/components/blog-card.tsx";
import { PageHeader, PageSection } from "#app/components/page-header.tsx";
import { listBlogPosts, summarize } from "#app/domain/blog.server.ts";
import { breadcrumbJsonLd, pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import type { Route } from "./+types/blog";

export function loader() {
  const posts = listBlogPosts().map(summarize);
  return { featured: posts.filter((post) => post.featured), others: posts.filter((post) => !post.featured) };
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ matches }) => {
  const { site } = matches[0].loaderData;
  return pageMeta(site, {
    title: "Blog — AI Role-Play, Interactive Fiction and Game Strategy",
    description:
      "Articles on AI role-play and interactive fiction: how to play court intrigue, why cultivation stories hook us, and how to design choices players love.",
    path: "/blog",
    jsonLd: [
      breadcrumbJsonLd(site, [
        { name: "Home", path: "/" },
        { name: "Blog", path: "/blog" },
      ]),
    ],
  });
};

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { featured, others } = loaderData;
  return (
    <>
      <PageHeader
        eyebrow="Blog"
        title="Stories About Stories"
        description="Strategy, craft and the ideas behind AI role-play, from the writers and players behind our games."
      />
      <PageSection id="featured" title="Featured Guides">
        <div className="grid gap-6 lg:grid-cols-2">
          {featured.map((post) => (
            <BlogCard key={post.slug} post={post} featured />
          ))}
        </div>
      </PageSection>
      <PageSection id="all-articles" tone="shaded" title="All Articles">
        <div className="grid gap-6 md:grid-cols-2">
          {others.map((post) => (
            <BlogCard key={post.slug} post={post} />
          ))}
        </div>
      </PageSection>
    </>
  );
}
