import { CommunityGrid } from "#app/components/community-worlds.tsx";
import { GameListMessage } from "#app/components/game-list-states.tsx";
import { PageHeader } from "#app/components/page-header.tsx";
import { findCreator, viewerSeesMature } from "#app/domain/community.server.ts";
import { pageMeta } from "#app/lib/seo.ts";
import { cacheForVisitors } from "#app/lib/visitor-cache.ts";
import type { Route } from "./+types/creator";

/** /creators/{handle}: a creator's Public worlds (Mature ones only for a player who confirmed their age). */
export async function loader({ params, request }: Route.LoaderArgs) {
  const creator = await findCreator(params.handle, await viewerSeesMature(request));
  if (!creator) throw new Response("There is no creator of that name.", { status: 404 });
  return creator;
}

export const headers = () => cacheForVisitors();

export const meta: Route.MetaFunction = ({ loaderData, matches }) =>
  pageMeta(matches[0].loaderData.site, {
    title: `Worlds by ${loaderData.name}`,
    description: `Interactive text adventures made by ${loaderData.name}, played with an AI Game Master.`,
    path: `/creators/${loaderData.handle}`,
    noindex: loaderData.worlds.length === 0,
  });

export default function Creator({ loaderData }: Route.ComponentProps) {
  const { name, worlds } = loaderData;
  return (
    <>
      <PageHeader
        eyebrow="Creator"
        title={`Worlds by ${name}`}
        description={`${worlds.length === 1 ? "1 public world" : `${worlds.length} public worlds`}.`}
      />
      <section aria-label={`${name}'s worlds`} className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        {worlds.length === 0 ? (
          <GameListMessage tone="empty" title="No public worlds yet">
            {name} has not published a Public world yet.
          </GameListMessage>
        ) : (
          <CommunityGrid worlds={worlds} />
        )}
      </section>
    </>
  );
}
