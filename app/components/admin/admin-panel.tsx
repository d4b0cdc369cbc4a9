import { ChartColumn, Cpu, FileText, Gamepad2, Inbox, LoaderCircle, UsersRound } from "lucide-react";
import { Link, useNavigate, useRevalidator, useSearchParams } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#app/components/ui/tabs.tsx";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { ContentManager } from "./content-manager.tsx";
import { GamesManager } from "./games-manager.tsx";
import { GuidesManager } from "./guides-manager.tsx";
import { MessagesList } from "./messages-list.tsx";
import { adminSearch, adminView, type AdminTab, type ContentTab } from "./admin-view.ts";
import { ModelPricesManager } from "./model-prices-manager.tsx";
import { MultiSectionEditor } from "./multi-section-editor.tsx";
import { Overview } from "./overview.tsx";
import { PlayersManager } from "./players-manager.tsx";
import { UnsavedChangesGuard } from "./unsaved-changes.tsx";
import type { AdminPanelData } from "./panel-data.ts";

// On a phone the tabs wrap onto a second line rather than hiding behind a scroll.
const WRAPPING_TABS = "flex-wrap rounded-3xl sm:rounded-full";

/** The admin panel: the open tab and what it shows live in the URL (?tab=…&days=…&q=…), so a reload or a shared link keeps them. */
export function AdminPanel({ data, adminEmail }: { data: AdminPanelData; adminEmail: string }) {
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  // Every reload of the panel's data (after a change) runs the server's admin check again.
  const rechecking = useRevalidator().state === "loading";
  const view = adminView(searchParams);
  const games = data.games?.map(({ slug, title }) => ({ slug, title })) ?? [];

  function open(next: { tab: AdminTab; section?: ContentTab }) {
    // The period, search and filter stay as they were; only the tab changes.
    void navigate({ search: adminSearch({ ...view, ...next, section: next.section }) }, { replace: true, preventScrollReset: true });
  }

  const messageCount = data.inbox?.unhandled ?? 0;

  return (
    <UnsavedChangesGuard>
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <header className="mb-8 flex flex-wrap items-end justify-between gap-3 border-b border-ink-line pb-6">
          <div>
            <p className="text-xs font-semibold tracking-[0.2em] text-gold uppercase">Administration</p>
            <h1 className="text-4xl sm:text-5xl">Admin Panel</h1>
          </div>
          <div className="flex flex-col items-start gap-1 text-sm text-parchment-dim sm:items-end">
            <p>
              Signed in as <span className="text-parchment">{adminEmail}</span>
            </p>
            <Link to="/moderation" className="text-gold underline underline-offset-4">
              Moderation queue
            </Link>
            {/* The list lives with the rest of moderation (docs/decisions/064); the panel points at it. */}
            <Link to="/moderation#blocked-terms" className="text-gold underline underline-offset-4">
              Blocked terms
            </Link>
            <p role="status" className="flex h-5 items-center gap-1.5 text-xs">
              {rechecking ? (
                <>
                  <LoaderCircle className="size-3.5 animate-spin text-gold" aria-hidden />
                  {ADMIN_TEXTS.checkingPermissions}
                </>
              ) : null}
            </p>
          </div>
        </header>
        <Tabs value={view.tab} onValueChange={(value) => open({ tab: value as AdminTab })}>
          <TabsList aria-label="Admin sections" className={WRAPPING_TABS}>
            <TabsTrigger value="overview">
              <ChartColumn aria-hidden />
              Overview
            </TabsTrigger>
            <TabsTrigger value="players">
              <UsersRound aria-hidden />
              Players
            </TabsTrigger>
            <TabsTrigger value="games">
              <Gamepad2 aria-hidden />
              Games Management
            </TabsTrigger>
            <TabsTrigger value="models">
              <Cpu aria-hidden />
              Models
            </TabsTrigger>
            <TabsTrigger value="content">
              <FileText aria-hidden />
              SEO Content
            </TabsTrigger>
            <TabsTrigger value="messages">
              <Inbox aria-hidden />
              Messages
              {messageCount > 0 ? (
                <span className="rounded-full bg-plum px-1.5 text-xs text-parchment" aria-label={`${messageCount} unhandled`}>
                  {messageCount}
                </span>
              ) : null}
            </TabsTrigger>
          </TabsList>
          <TabsContent value="overview">
            <Overview dashboard={data.dashboard} />
          </TabsContent>
          <TabsContent value="players">
            <PlayersManager players={data.players} view={view} />
          </TabsContent>
          <TabsContent value="games">
            <GamesManager games={data.games} models={data.gameModels} />
          </TabsContent>
          <TabsContent value="models">
            <ModelPricesManager prices={data.modelPrices} />
          </TabsContent>
          <TabsContent value="content">
            <Tabs value={view.section} onValueChange={(value) => open({ tab: "content", section: value as ContentTab })}>
              <TabsList aria-label="SEO content" className={`${WRAPPING_TABS} bg-ink-raised`}>
                <TabsTrigger value="game-content">Game Content</TabsTrigger>
                <TabsTrigger value="sections">Multi-Section Editor</TabsTrigger>
                <TabsTrigger value="guides">Guides &amp; Articles</TabsTrigger>
              </TabsList>
              <TabsContent value="game-content">
                <ContentManager content={data.content} games={games} />
              </TabsContent>
              <TabsContent value="sections">
                <MultiSectionEditor content={data.content} games={games} />
              </TabsContent>
              <TabsContent value="guides">
                <GuidesManager guides={data.guides} />
              </TabsContent>
            </Tabs>
          </TabsContent>
          <TabsContent value="messages">
            <MessagesList inbox={data.inbox} view={view} />
          </TabsContent>
        </Tabs>
      </div>
    </UnsavedChangesGuard>
  );
}
