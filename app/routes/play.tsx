import { useEffect } from "react";
import { data, redirect, useNavigate, type ShouldRevalidateFunctionArgs } from "react-router";
import { toast } from "#app/components/toast.ts";
import { PlayScreen } from "#app/components/play/play-screen.tsx";
import { getSessionUser } from "#app/domain/auth.server.ts";
import { WorldVersionNotice } from "#app/components/world-version-notice.tsx";
import { personalPageHeaders, requireUser } from "#app/http/guards.server.ts";
import { findPlayableGame, loadWorldVersionBrief } from "#app/domain/game-master/game-source.server.ts";
import { isOfflineStoryteller } from "#app/domain/game-master/model.server.ts";
import { findLatestStory, findStoryOfGame, settleAbandonedTurn, storyView, updateStoryWorldVersion } from "#app/domain/stories.server.ts";
import { signUpToPlayPath } from "#app/lib/auth.ts";
import { PLAY_TEXTS, PLAY_TOASTS } from "#app/lib/play-texts.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/play";

/** Personal: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request);
  const game = await findPlayableGame(params.slug, user?.id);
  if (!game) return data({ state: "game-not-found" as const }, { status: 404 });
  // A visitor pressing Start Playing is most likely new: the Sign Up form, then back to this game.
  if (!user) throw redirect(signUpToPlayPath(game.slug), { headers: personalPageHeaders() });
  // /play/{slug} resumes the story of this game played most recently; /play/{slug}/{id} is one story.
  const story = params.storyId ? await findStoryOfGame(user.id, game.slug, params.storyId) : await findLatestStory(user.id, game.slug);
  if (params.storyId && !story) throw redirect(`/play/${game.slug}`, { headers: personalPageHeaders() });
  // A story of another player's world is shown as the version it plays (docs/decisions/065): that
  // version's title and tracked stats, as its turns read them (kept in memory, like the game's).
  const version = story?.worldVersion != null ? await loadWorldVersionBrief(game.slug, story.worldVersion) : undefined;
  const { title, trackedStats } = version ?? game;
  // The newest exchanges only: however long the story, the page stays one screenful and a little more.
  return {
    state: "ready" as const,
    game: { slug: game.slug, title, tagline: game.tagline, trackedStats },
    story: story ? await storyView(await settleAbandonedTurn(story), trackedStats) : null,
    // A story of another player's world plays the version it began with, until the player updates it.
    worldUpdate:
      story?.worldVersion != null && game.publishedVersion != null && game.publishedVersion > story.worldVersion
        ? { storyId: story.id, playing: story.worldVersion, latest: game.publishedVersion }
        : null,
    offline: isOfflineStoryteller(),
    playerEmail: user.email,
    // This response's script nonce: the story is shown at its newest text before the page's scripts run.
    nonce: context.get(requestContext).cspNonce,
  };
}

/** Update to version N: the story plays the world's latest published version from its next turn on. */
export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const storyId = form.get("storyId");
  if (form.get("intent") !== "update-world-version" || typeof storyId !== "string") {
    throw new Response("Choose a story to update.", { status: 400 });
  }
  const story = await findStoryOfGame(user.id, params.slug, storyId);
  if (!story) throw new Response("There is no such story of yours.", { status: 404 });
  await updateStoryWorldVersion(user.id, story.id);
  throw redirect(`/play/${params.slug}/${story.id}`, { headers: personalPageHeaders() });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const siteName = matches[0].loaderData.site.name;
  const title = loaderData.state === "ready" ? `Play ${loaderData.game.title} | ${siteName}` : `Play | ${siteName}`;
  return [{ title }, { name: "robots", content: "noindex" }];
};

/**
 * The story lives in the page's own state once loaded; revalidations after each turn (which
 * refresh the balance) need not reload it. Another game's slug loads afresh.
 */
export function shouldRevalidate({ currentParams, nextParams, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return (currentParams.slug !== nextParams.slug || currentParams.storyId !== nextParams.storyId) && defaultShouldRevalidate;
}

/** SPEC: an unknown game goes back to the list, with a toast. */
function Redirecting({ to, label, notice }: { to: string; label: string; notice: { title: string; description: string } }) {
  const navigate = useNavigate();
  useEffect(() => {
    toast.error(notice.title, { description: notice.description, id: notice.title });
    void navigate(to, { replace: true });
  }, [navigate, notice, to]);
  return (
    <section className="flex h-[60dvh] flex-col items-center justify-center gap-4 px-4 text-center" aria-busy="true">
      <span aria-hidden className="size-8 animate-spin rounded-full border-2 border-gold/30 border-t-gold" />
      <p className="text-parchment-dim">{label}</p>
      <noscript>
        <a href={to} className="text-gold underline">
          Continue
        </a>
      </noscript>
    </section>
  );
}

export default function Play({ loaderData }: Route.ComponentProps) {
  if (loaderData.state === "game-not-found") {
    return <Redirecting to="/games" label={PLAY_TEXTS.loadingGame} notice={PLAY_TOASTS.gameNotFound} />;
  }
  return (
    <PlayScreen
      key={`${loaderData.game.slug}:${loaderData.story?.id ?? "new"}`}
      game={loaderData.game}
      initialStory={loaderData.story}
      offline={loaderData.offline}
      playerEmail={loaderData.playerEmail}
      nonce={loaderData.nonce}
      notice={loaderData.worldUpdate ? <WorldVersionNotice {...loaderData.worldUpdate} /> : undefined}
    />
  );
}
