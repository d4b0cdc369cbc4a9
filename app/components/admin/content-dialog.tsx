import { useState, type SubmitEvent } from "react";
import { toast } from "sonner";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#app/components/ui/dialog.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { contentInputSchema, fieldErrorsOf, type FieldErrors } from "#app/lib/admin-forms.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { CONTENT_TYPES, type ContentType } from "#app/lib/constants.ts";
import { WORD_TARGETS } from "#app/lib/writing-hints.ts";
import { focusFirstError } from "./focus-first-error.ts";
import { controlProps, Field, SelectField, SwitchField } from "./form-controls.tsx";
import { CONTENT_TYPE_ICONS, contentTypeLabel } from "./icons.tsx";
import type { AdminContent, GameChoice } from "./panel-data.ts";
import { RichTextField } from "./rich-text-field.tsx";
import { useAdminRequest } from "./use-admin-request.ts";

interface ContentFormState {
  gameSlug: string;
  contentType: ContentType;
  title: string;
  content: string;
  sectionOrder: string;
  isPublished: boolean;
}

const TYPE_OPTIONS = CONTENT_TYPES.map((type) => {
  const Icon = CONTENT_TYPE_ICONS[type];
  return {
    value: type,
    label: (
      <span className="inline-flex items-center gap-2">
        <Icon className="size-4 text-gold" aria-hidden />
        {contentTypeLabel(type)}
      </span>
    ),
  };
});

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
  const [values, setValues] = useState<ContentFormState>(() => ({
    gameSlug: record?.gameSlug ?? defaultGameSlug,
    contentType: record?.contentType ?? "introduction",
    title: record?.title ?? "",
    content: record?.content ?? "",
    sectionOrder: String(record?.sectionOrder ?? 0),
    isPublished: record?.isPublished ?? true,
  }));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { send, pending } = useAdminRequest();

  function set<Key extends keyof ContentFormState>(key: Key, value: ContentFormState[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors(({ [key]: _cleared, ...rest }) => rest);
  }

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = contentInputSchema.safeParse(values);
    if (!checked.success) {
      const found = fieldErrorsOf(checked.error);
      setErrors(found);
      focusFirstError("content", found);
      return;
    }
    const result = record
      ? await send("PUT", `/api/admin/game-content/${record.id}`, values)
      : await send("POST", "/api/admin/game-content", values);
    if (result.ok) {
      toast.success(record ? ADMIN_TEXTS.contentUpdated : ADMIN_TEXTS.contentCreated);
      onClose();
      return;
    }
    setErrors(result.fieldErrors);
    focusFirstError("content", result.fieldErrors);
    toast.error(ADMIN_TEXTS.saveErrorTitle, { description: result.error ?? ADMIN_TEXTS.somethingWentWrong });
  }

  const id = (field: keyof ContentFormState) => `content-${field}`;

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
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
          <Field
            id={id("sectionOrder")}
            label="Section order"
            error={errors.sectionOrder}
            hint={<p className="text-parchment-dim">Lower comes first; leave gaps (0, 10, 20).</p>}
          >
            <Input
              {...controlProps(id("sectionOrder"), errors.sectionOrder)}
              inputMode="numeric"
              value={values.sectionOrder}
              onChange={(event) => set("sectionOrder", event.target.value)}
            />
          </Field>
          <div className="sm:pt-6">
            <SwitchField id={id("isPublished")} label="Published" checked={values.isPublished} onChange={(isPublished) => set("isPublished", isPublished)} />
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
            <Button type="button" variant="secondary" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? ADMIN_TEXTS.saving : record ? "Update Content" : "Create Content"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
