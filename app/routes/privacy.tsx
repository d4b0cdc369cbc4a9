import { LegalPage } from "#app/components/legal-page.tsx";
import { renderMarkdown } from "#app/components/render-markdown.server.tsx";
import { getLegalPage } from "#app/domain/legal.server.ts";
import { env } from "#app/env.server.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import type { Route } from "./+types/privacy";

export function loader() {
  const page = getLegalPage("privacy", env().SUPPORT_EMAIL);
  return { title: page.title, updated: page.updated, html: renderMarkdown(page.body) };
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  return pageMeta(site, {
    title: loaderData.title,
    description: `How ${site.name} collects, uses and protects your information, in plain language: your account, credits, stories, cookies and your rights.`,
    path: "/privacy",
  });
};

export default function Privacy({ loaderData }: Route.ComponentProps) {
  return <LegalPage {...loaderData} />;
}
