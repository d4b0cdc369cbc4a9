import { renderRobots } from "#app/domain/sitemap.server.ts";
import { env } from "#app/env.server.ts";

export function loader() {
  return new Response(renderRobots(env().PUBLIC_URL), {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" },
  });
}
