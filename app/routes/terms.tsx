import { LegalPage } from "#app/components/legal-page.tsx";
import { renderMarkdown } from "#app/components/render-markdown.server.tsx";
import { getLegalPage } from "#app/domain/legal.server.ts";
import { env } from "#app/env.server.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import type { Route } from "./+types/terms";

export function loader() {
  const page = getLegalPage("terms", env().SUPPORT_EMAIL);
  return { title: page.title, updated: page.updated, html: renderMarkdown(page.body) };
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  return pageMeta(site, {
    title: loaderData.title,
    description: `The terms for using ${site.name}: your account, credits and payments, the AI Game Master, acceptable use and how to leave, in plain language.`,
    path: "/terms",
  });
};

export default function Terms({ loaderData }: Route.ComponentProps) {
  return <LegalPage {...loaderData} />;
}
