import { dashboardPeriod, type DashboardPeriod } from "#app/lib/admin-dashboard.ts";
import { INBOX_FILTERS, type InboxFilter } from "#app/lib/admin-inbox.ts";

/** The panel's tabs, in order; the overview opens first. */
export const ADMIN_TABS = ["overview", "players", "games", "models", "content", "messages"] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];
export const CONTENT_TABS = ["game-content", "sections", "guides"] as const;
export type ContentTab = (typeof CONTENT_TABS)[number];

function pick<Value extends string>(values: readonly Value[], value: string | null, fallback: Value): Value {
  return values.find((candidate) => candidate === value) ?? fallback;
}

/** What /admin?… shows: the open tab and what it reads (the overview's period, a players search, the inbox filter). */
export interface AdminView {
  tab: AdminTab;
  section: ContentTab;
  days: DashboardPeriod;
  query: string;
  player: string | null;
  inbox: InboxFilter;
}

export function adminView(params: URLSearchParams): AdminView {
  return {
    tab: pick(ADMIN_TABS, params.get("tab"), "overview"),
    section: pick(CONTENT_TABS, params.get("section"), "game-content"),
    days: dashboardPeriod(params.get("days")),
    query: (params.get("q") ?? "").slice(0, 200),
    player: params.get("player"),
    inbox: pick(INBOX_FILTERS, params.get("inbox"), "all"),
  };
}

/** The parts of the address the loader reads: two addresses with the same key show the same data. */
export function adminDataKey(params: URLSearchParams): string {
  const view = adminView(params);
  return JSON.stringify([
    view.inbox,
    view.tab === "overview" ? view.days : null,
    view.tab === "players" ? [view.query, view.player] : null,
    view.tab === "models",
    view.tab === "games",
  ]);
}

/** The address of a view: only what differs from the defaults is written. */
export function adminSearch(view: Partial<AdminView> & { tab: AdminTab }): string {
  const params = new URLSearchParams();
  if (view.tab !== "overview") params.set("tab", view.tab);
  if (view.tab === "content" && view.section && view.section !== "game-content") params.set("section", view.section);
  if (view.tab === "overview" && view.days && view.days !== dashboardPeriod(null)) params.set("days", String(view.days));
  if (view.tab === "players" && view.query) params.set("q", view.query);
  if (view.tab === "players" && view.player) params.set("player", view.player);
  if (view.inbox && view.inbox !== "all") params.set("inbox", view.inbox);
  const search = params.toString();
  return search ? `?${search}` : "";
}
