import { z } from "zod";
import { readMarkdownFolder } from "../lib/content-files.server.ts";

/** The blog: articles written as Markdown in content/blog, part of the release. */

export interface BlogPostSummary {
  slug: string;
  title: string;
  excerpt: string;
  category: string;
  readTimeMinutes: number;
  featured: boolean;
  author: string;
  /** ISO date, e.g. 2025-06-03. */
  publishedAt: string;
  tags: string[];
}

export interface BlogPost extends BlogPostSummary {
  /** Markdown; render it with the sanitising renderer. */
  body: string;
}

const isoDate = z
  .union([z.string().regex(/^\d{4}-\d{2}-\d{2}/), z.date()])
  .transform((value) => (value instanceof Date ? value.toISOString() : value).slice(0, 10));

const blogFileSchema = z.object({
  slug: z.string().regex(/^[a-z0-9-]+$/),
  title: z.string().min(1),
  excerpt: z.string().min(1),
  category: z.string().min(1),
  read_time: z.number().int().min(1),
  featured: z.boolean().default(false),
  author: z.string().min(1),
  published_at: isoDate,
  tags: z.array(z.string().min(1)).default([]),
});

let posts: BlogPost[] | undefined;

/** Every article, newest first; read once, since content/ does not change while the site runs. */
export function listBlogPosts(): BlogPost[] {
  posts ??= readMarkdownFolder(["blog"], blogFileSchema)
    .map(({ attributes, body }) => ({
      slug: attributes.slug,
      title: attributes.title,
      excerpt: attributes.excerpt,
      category: attributes.category,
      readTimeMinutes: attributes.read_time,
      featured: attributes.featured,
      author: attributes.author,
      publishedAt: attributes.published_at,
      tags: attributes.tags,
      body,
    }))
    .sort((a, b) => b.publishedAt.localeCompare(a.publishedAt) || a.title.localeCompare(b.title));
  return posts;
}

export function summarize({ body: _body, ...summary }: BlogPost): BlogPostSummary {
  return summary;
}

export function getBlogPost(slug: string): BlogPost | undefined {
  return listBlogPosts().find((post) => post.slug === slug);
}
