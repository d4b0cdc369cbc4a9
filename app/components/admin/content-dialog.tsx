import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#app/components/ui/dialog.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { contentInputSchema } from "#app/lib/admin-forms.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { CONTENT_TYPES, type ContentType } from "#app/lib/constants.ts";
import { WORD_TARGETS } from "#app/lib/writing-hints.ts";
import { controlProps, Field, FormActions, NumberField, SelectField, SwitchField } from "./form-controls.tsx";
import { CONTENT_TYPE_ICONS, contentTypeLabel, iconOptions } from "./icons.tsx";
import type { AdminContent, GameChoice } from "./panel-data.ts";
import { RichTextField } from "./rich-text-field.tsx";
import { useAdminForm } from "./use-admin-form.ts";

interface ContentFormState {
  gameSlug: string;
  contentType: ContentType;
  title: string;
  content: string;
  sectionOrder: string;
  isPublished: boolean;
}

const TYPE_OPTIONS = iconOptions(CONTENT_TYPE_ICONS, CONTENT_TYPES, contentTypeLabel);

/** SPEC's content form: creates a record, or updates the one it was opened on; closes on success. */
export function ContentDialog({
  games,
  record,
  defaultGameSlug = "",
  onClose,
}: {
  games: GameChoice[];
  record?: AdminContent;
  defaultGameSlug?: string;
  onClose: () => void;
}) {
  const { values, errors, set, submit, pending, id, leave } = useAdminForm<ContentFormState>({
    prefix: "content",
    initial: () => ({
      gameSlug: record?.gameSlug ?? defaultGameSlug,
      contentType: record?.contentType ?? "introduction",
      title: record?.title ?? "",
      content: record?.content ?? "",
      sectionOrder: String(record?.sectionOrder ?? 0),
      isPublished: record?.isPublished ?? true,
    }),
    schema: contentInputSchema,
    endpoint: record ? { method: "PUT", url: `/api/admin/game-content/${record.id}` } : { method: "POST", url: "/api/admin/game-content" },
    savedMessage: record ? ADMIN_TEXTS.contentUpdated : ADMIN_TEXTS.contentCreated,
    failure: { title: ADMIN_TEXTS.saveErrorTitle, fallback: ADMIN_TEXTS.somethingWentWrong },
    onSaved: onClose,
  });

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && leave(onClose)}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{record ? "Edit Content" : ADMIN_TEXTS.addContent}</DialogTitle>
          <DialogDescription>Published content appears on the game's public pages.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
          <SelectField
            id={id("gameSlug")}
            label="Game"
            placeholder="Choose a game"
            value={values.gameSlug}
            options={games.map((game) => ({ value: game.slug, label: game.title }))}
            onChange={(gameSlug) => set("gameSlug", gameSlug)}
            error={errors.gameSlug}
          />
          <SelectField
            id={id("contentType")}
            label="Content type"
            value={values.contentType}
            options={TYPE_OPTIONS}
            onChange={(contentType) => set("contentType", contentType)}
            error={errors.contentType}
          />
          <Field id={id("title")} label="Title" required error={errors.title} className="sm:col-span-2">
            <Input {...controlProps(id("title"), errors.title)} value={values.title} onChange={(event) => set("title", event.target.value)} />
          </Field>
          <NumberField
            id={id("sectionOrder")}
            label="Section order"
            value={values.sectionOrder}
            onChange={(sectionOrder) => set("sectionOrder", sectionOrder)}
            error={errors.sectionOrder}
            hint="Lower comes first; leave gaps (0, 10, 20)."
          />
          <div className="sm:pt-6">
            <SwitchField
              id={id("isPublished")}
              label="Published"
              checked={values.isPublished}
              onChange={(isPublished) => set("isPublished", isPublished)}
            />
          </div>
          <div className="sm:col-span-2">
            <RichTextField
              id={id("content")}
              label="Content"
              required
              value={values.content}
              onChange={(content) => set("content", content)}
              error={errors.content}
              wordTarget={WORD_TARGETS.gameContent}
              rows={14}
            />
          </div>
          <DialogFooter className="sm:col-span-2">
            <FormActions pending={pending} submitLabel={record ? "Update Content" : "Create Content"} onCancel={() => leave(onClose)} />
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
