import { Suspense } from "react";
import { Await, isRouteErrorResponse, type ShouldRevalidateFunctionArgs } from "react-router";
import { AccessDenied, AdminCheckRefused, CheckingPermissions } from "#app/components/admin/admin-gate.tsx";
import { AdminPanel } from "#app/components/admin/admin-panel.tsx";
import type { AdminPanelData, PlayersView } from "#app/components/admin/panel-data.ts";
import { adminDataKey, adminView } from "#app/components/admin/admin-view.ts";
import { useRootData } from "#app/components/use-root-data.ts";
import { personalPageHeaders, requireAdmin } from "#app/http/guards.server.ts";
import { listContactMessages } from "#app/domain/contact-admin.server.ts";
import { listContentForAdmin } from "#app/domain/content-admin.server.ts";
import { loadDashboard } from "#app/domain/admin-dashboard.server.ts";
import { NotFoundError } from "#app/domain/errors.server.ts";
import { listGamesForAdmin, loadGameModelChoices } from "#app/domain/game-admin.server.ts";
import { listModelPrices } from "#app/domain/model-prices.server.ts";
import { getPlayer, searchPlayers } from "#app/domain/players-admin.server.ts";
import { listGuidesForAdmin } from "#app/domain/guide-admin.server.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/admin";

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Admin Panel — ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex, nofollow" },
];

/**
 * Admins only, checked here on the server: signed out → /auth (and back), signed in without the
 * admin role → 403 'Access Denied'. A list that cannot be read shows its own error; the rest of
 * the panel still works.
 */

/** Personal: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;
export async function loader({ request, context }: Route.LoaderArgs): Promise<{ panel: AdminPanelData }> {
  await requireAdmin(request);
  const { logger } = context.get(requestContext);
  const orNull = <T,>(list: string, read: Promise<T>) =>
    read.catch((error: unknown) => {
      logger.error({ err: error }, `admin panel: reading ${list} failed`);
      return null;
    });
  const view = adminView(new URL(request.url).searchParams);
  const [games, content, guides, inbox, dashboard, players, modelPrices, gameModels] = await Promise.all([
    orNull("games", listGamesForAdmin()),
    orNull("content", listContentForAdmin()),
    orNull("guides", listGuidesForAdmin()),
    orNull(
      "contact messages",
      listContactMessages({ filter: view.inbox }).then((found) => ({ ...found, filter: view.inbox })),
    ),
    view.tab === "overview" ? orNull("the overview", loadDashboard(view.days)) : undefined,
    view.tab === "players" ? orNull("players", readPlayersView(view.query, view.player)) : undefined,
    view.tab === "models" ? orNull("the price table", listModelPrices()) : undefined,
    view.tab === "games" ? orNull("the games' models", loadGameModelChoices()) : undefined,
  ]);
  return { panel: { games, content, guides, inbox, dashboard, players, modelPrices, gameModels } };
}

async function readPlayersView(query: string, playerId: string | null): Promise<PlayersView> {
  const [results, selected] = await Promise.all([
    searchPlayers(query),
    playerId
      ? getPlayer(playerId).catch((error: unknown) => {
          if (error instanceof NotFoundError) return "missing" as const;
          throw error;
        })
      : null,
  ]);
  return { query, results, selected };
}

/**
 * On a client-side visit the page appears at once with 'Checking permissions...' while the
 * server runs the check above; its answer replaces it. (A full page load gets the server's answer
 * directly.) A reload of the data while the panel is on screen — after a change — waits for the
 * data instead, so the panel stays and whoever asked for the reload gets fresh lists.
 */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const panel = serverLoader().then((data) => data.panel);
  // During a navigation the address bar still shows the page being left.
  if (window.location.pathname === "/admin") return { panel: await panel };
  panel.catch(() => {}); // <Await> handles a refusal; this only keeps the browser from reporting it as unhandled.
  return { panel };
}

/**
 * Only what the page shows changed (another tab, a section of it): the data is the same, so
 * nothing is fetched again. A change to what is read (the overview's period, a players search, the
 * inbox filter, opening the overview or the players tab) reads again.
 */
export function shouldRevalidate({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) {
    return adminDataKey(currentUrl.searchParams) !== adminDataKey(nextUrl.searchParams);
  }
  return defaultShouldRevalidate;
}

export default function Admin({ loaderData }: Route.ComponentProps) {
  const { viewer } = useRootData();
  return (
    <Suspense fallback={<CheckingPermissions />}>
      <Await resolve={loaderData.panel} errorElement={<AdminCheckRefused />}>
        {(panel) => <AdminPanel data={panel} adminEmail={viewer?.email ?? ""} />}
      </Await>
    </Suspense>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 403) return <AccessDenied />;
  throw error;
}
