import { LegalPage } from "#app/components/legal-page.tsx";
import { renderMarkdown } from "#app/components/render-markdown.server.tsx";
import { getLegalPage, type LegalPageName } from "#app/domain/legal.server.ts";
import { env } from "#app/env.server.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import type { Route } from "./+types/legal";

/** /privacy and /terms: one module, two routes (app/routes.ts); the path says which page. */

const DESCRIPTIONS: Record<LegalPageName, (siteName: string) => string> = {
  privacy: (siteName) =>
    `How ${siteName} collects, uses and protects your information, in plain language: your account, credits, stories, cookies and your rights.`,
  terms: (siteName) =>
    `The terms for using ${siteName}: your account, credits and payments, the AI Game Master, acceptable use and how to leave, in plain language.`,
};

export function loader({ request }: Route.LoaderArgs) {
  const name: LegalPageName = new URL(request.url).pathname.replace(/\/+$/, "").endsWith("/terms") ? "terms" : "privacy";
  const page = getLegalPage(name, env().SUPPORT_EMAIL);
  return { name, title: page.title, updated: page.updated, html: renderMarkdown(page.body) };
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const { site } = matches[0].loaderData;
  return pageMeta(site, { title: loaderData.title, description: DESCRIPTIONS[loaderData.name](site.name), path: `/${loaderData.name}` });
};

export default function Legal({ loaderData }: Route.ComponentProps) {
  return <LegalPage title={loaderData.title} updated={loaderData.updated} html={loaderData.html} />;
}
