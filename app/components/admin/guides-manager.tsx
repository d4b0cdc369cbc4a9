import { BookOpen, Clock, Plus, Star } from "lucide-react";
import { useState } from "react";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { Guide } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { capitalize } from "#app/lib/utils.ts";
import { PublishedIndicator } from "./form-controls.tsx";
import { GuideDialog } from "./guide-dialog.tsx";
import { AdminItemList, DeleteButton, EditButton } from "./item-list.tsx";

type DialogState = { mode: "create" } | { mode: "edit"; guide: Guide } | null;

/** SPEC's Guides & Articles sub-tab: the card grid and the Add Guide dialog. */
export function GuidesManager({ guides }: { guides: Guide[] | null }) {
  const [dialog, setDialog] = useState<DialogState>(null);
  const openCreate = () => setDialog({ mode: "create" });

  return (
    <section aria-labelledby="guides-heading" className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="guides-heading" className="text-3xl">
            Guides &amp; Articles
          </h2>
          <p className="text-sm text-parchment-dim">Published guides are listed on /guides, newest first.</p>
        </div>
        <Button onClick={openCreate}>
          <Plus aria-hidden />
          {ADMIN_TEXTS.addGuide}
        </Button>
      </div>
      <AdminItemList
        items={guides}
        loadFailedMessage={ADMIN_TEXTS.guidesLoadFailed}
        empty={{ icon: <BookOpen />, title: ADMIN_TEXTS.noGuides, addLabel: ADMIN_TEXTS.addFirstGuide, onAdd: openCreate }}
        className="grid gap-4 md:grid-cols-2 xl:grid-cols-3"
        renderItem={(guide) => <GuideCard key={guide.id} guide={guide} onEdit={() => setDialog({ mode: "edit", guide })} />}
      />
      {dialog ? (
        <GuideDialog
          key={dialog.mode === "edit" ? dialog.guide.id : "new"}
          guide={dialog.mode === "edit" ? dialog.guide : undefined}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </section>
  );
}

function GuideCard({ guide, onEdit }: { guide: Guide; onEdit: () => void }) {
  return (
    <li className="flex flex-col gap-3 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant="outline">{capitalize(guide.category)}</Badge>
          {guide.featured ? (
            <Badge>
              <Star aria-hidden />
              Featured
            </Badge>
          ) : null}
        </div>
        <PublishedIndicator published={guide.isPublished} />
      </div>
      <div className="min-w-0">
        <h3 className="font-display text-xl leading-snug">{guide.title}</h3>
        <p className="flex flex-wrap items-center gap-x-3 text-xs text-parchment-dim">
          <span>{capitalize(guide.difficulty)}</span>
          <span className="inline-flex items-center gap-1">
            <Clock className="size-3.5" aria-hidden />
            {guide.estimatedReadTime} min read
          </span>
          <span className="font-mono">/guides/{guide.slug}</span>
        </p>
      </div>
      <p className="line-clamp-3 flex-1 text-sm text-parchment-dim">{guide.description}</p>
      <div className="flex justify-end gap-1 border-t border-ink-line pt-3">
        <EditButton title={guide.title} onEdit={onEdit} />
        <DeleteButton
          kind="guide"
          title={guide.title}
          url={`/api/admin/guides/${guide.id}`}
          deletedMessage={ADMIN_TEXTS.guideDeleted}
          failedMessage={ADMIN_TEXTS.guideDeleteFailed}
        />
      </div>
    </li>
  );
}
