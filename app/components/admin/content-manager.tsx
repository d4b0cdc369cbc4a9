import { FileText, Plus } from "lucide-react";
import { useState } from "react";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { contentPreview } from "#app/lib/content-preview.ts";
import { ContentDialog } from "./content-dialog.tsx";
import { PublishedIndicator, SelectField } from "./form-controls.tsx";
import { CONTENT_TYPE_ICONS, contentTypeLabel } from "./icons.tsx";
import { AdminItemList, DeleteButton, EditButton } from "./item-list.tsx";
import type { AdminContent, GameChoice } from "./panel-data.ts";

const ALL_GAMES = "all";

type DialogState = { mode: "create"; gameSlug: string } | { mode: "edit"; record: AdminContent } | null;

/** SPEC's Game Content sub-tab: a game filter, the card grid and the Add Content dialog. */
export function ContentManager({ content, games }: { content: AdminContent[] | null; games: GameChoice[] }) {
  const [filter, setFilter] = useState<string>(ALL_GAMES);
  const [dialog, setDialog] = useState<DialogState>(null);
  const shown = content?.filter((record) => filter === ALL_GAMES || record.gameSlug === filter) ?? null;
  const openCreate = () => setDialog({ mode: "create", gameSlug: filter === ALL_GAMES ? (games[0]?.slug ?? "") : filter });

  return (
    <section aria-labelledby="content-heading" className="space-y-5">
      <h2 id="content-heading" className="sr-only">
        Game Content
      </h2>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <SelectField
          id="content-filter"
          label="Game"
          className="w-full sm:w-72"
          value={filter}
          options={[{ value: ALL_GAMES, label: "All Games" }, ...games.map((game) => ({ value: game.slug, label: game.title }))]}
          onChange={setFilter}
        />
        <Button onClick={openCreate} className="mb-5">
          <Plus aria-hidden />
          {ADMIN_TEXTS.addContent}
        </Button>
      </div>
      <AdminItemList
        items={shown}
        loadFailedMessage={ADMIN_TEXTS.contentLoadFailed}
        empty={{ icon: <FileText />, title: ADMIN_TEXTS.noContent, addLabel: ADMIN_TEXTS.addFirstContent, onAdd: openCreate }}
        className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
        renderItem={(record) => <ContentCard key={record.id} record={record} onEdit={() => setDialog({ mode: "edit", record })} />}
      />
      {dialog ? (
        <ContentDialog
          key={dialog.mode === "edit" ? dialog.record.id : "new"}
          games={games}
          record={dialog.mode === "edit" ? dialog.record : undefined}
          defaultGameSlug={dialog.mode === "create" ? dialog.gameSlug : undefined}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </section>
  );
}

function ContentCard({ record, onEdit }: { record: AdminContent; onEdit: () => void }) {
  const Icon = CONTENT_TYPE_ICONS[record.contentType];

  return (
    <li className="flex flex-col gap-3 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4">
      <div className="flex items-center justify-between gap-2">
        <div className="flex min-w-0 items-center gap-2">
          <Icon className="size-5 shrink-0 text-gold" strokeWidth={1.75} aria-hidden />
          <Badge variant="outline" className="truncate">
            {contentTypeLabel(record.contentType)}
          </Badge>
        </div>
        <PublishedIndicator published={record.isPublished} />
      </div>
      <div className="min-w-0">
        <h3 className="font-display text-xl leading-snug">{record.title}</h3>
        <p className="text-xs text-parchment-dim">
          {record.gameTitle} · Order {record.sectionOrder}
        </p>
      </div>
      <p className="flex-1 text-sm break-words text-parchment-dim">{contentPreview(record.content)}</p>
      <div className="flex justify-end gap-1 border-t border-ink-line pt-3">
        <EditButton title={record.title} onEdit={onEdit} />
        <DeleteButton
          kind="content"
          title={record.title}
          url={`/api/admin/game-content/${record.id}`}
          deletedMessage={ADMIN_TEXTS.contentDeleted}
          failedMessage={ADMIN_TEXTS.contentDeleteFailed}
        />
      </div>
    </li>
  );
}
