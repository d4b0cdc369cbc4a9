import { listSitemapEntries, renderSitemap } from "#app/domain/sitemap.server.ts";
import { env } from "#app/env.server.ts";

export async function loader() {
  const xml = renderSitemap(env().PUBLIC_URL, await listSitemapEntries());
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
