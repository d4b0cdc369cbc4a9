import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#app/components/ui/dialog.tsx";
import type { Guide } from "#app/db/schema.ts";
import { guideInputSchema } from "#app/lib/admin-forms.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { DEFAULT_READ_TIME_MINUTES, GUIDE_CATEGORIES, GUIDE_DIFFICULTIES, type GuideCategory, type GuideDifficulty } from "#app/lib/constants.ts";
import { capitalize } from "#app/lib/utils.ts";
import { WORD_TARGETS } from "#app/lib/writing-hints.ts";
import { DescriptionField, FormActions, NumberField, SelectField, SwitchField } from "./form-controls.tsx";
import { RichTextField } from "./rich-text-field.tsx";
import { TitleAndSlugFields } from "./title-slug-fields.tsx";
import { useAdminForm } from "./use-admin-form.ts";

interface GuideFormState {
  title: string;
  slug: string;
  description: string;
  content: string;
  category: GuideCategory;
  difficulty: GuideDifficulty;
  estimatedReadTime: string;
  isPublished: boolean;
  featured: boolean;
}

/** SPEC's guide form: creates a guide, or updates the one it was opened on; closes on success. */
export function GuideDialog({ guide, onClose }: { guide?: Guide; onClose: () => void }) {
  const { values, errors, set, submit, pending, id, leave } = useAdminForm<GuideFormState>({
    prefix: "guide",
    initial: () => ({
      title: guide?.title ?? "",
      slug: guide?.slug ?? "",
      description: guide?.description ?? "",
      content: guide?.content ?? "",
      category: guide?.category ?? "general",
      difficulty: guide?.difficulty ?? "beginner",
      estimatedReadTime: String(guide?.estimatedReadTime ?? DEFAULT_READ_TIME_MINUTES),
      isPublished: guide?.isPublished ?? true,
      featured: guide?.featured ?? false,
    }),
    schema: guideInputSchema,
    endpoint: guide ? { method: "PUT", url: `/api/admin/guides/${guide.id}` } : { method: "POST", url: "/api/admin/guides" },
    savedMessage: guide ? ADMIN_TEXTS.guideUpdated : ADMIN_TEXTS.guideCreated,
    failure: { title: ADMIN_TEXTS.saveErrorTitle, fallback: ADMIN_TEXTS.somethingWentWrong },
    onSaved: onClose,
  });

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && leave(onClose)}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{guide ? "Edit Guide" : ADMIN_TEXTS.addGuide}</DialogTitle>
          <DialogDescription>Published guides are listed on /guides and have their own page.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
          <TitleAndSlugFields
            prefix="guide"
            title={values.title}
            slug={values.slug}
            errors={errors}
            isNew={!guide}
            pagePath="/guides/"
            onTitleChange={(title) => set("title", title)}
            onSlugChange={(slug) => set("slug", slug)}
          />
          <DescriptionField
            id={id("description")}
            value={values.description}
            onChange={(description) => set("description", description)}
            error={errors.description}
            className="sm:col-span-2"
          />
          <div className="sm:col-span-2">
            <RichTextField
              id={id("content")}
              label="Content"
              required
              value={values.content}
              onChange={(content) => set("content", content)}
              error={errors.content}
              wordTarget={WORD_TARGETS.guide}
              rows={14}
            />
          </div>
          <div className="grid gap-4 sm:col-span-2 sm:grid-cols-3">
            <SelectField
              id={id("category")}
              label="Category"
              value={values.category}
              options={GUIDE_CATEGORIES.map((value) => ({ value, label: capitalize(value) }))}
              onChange={(category) => set("category", category)}
              error={errors.category}
            />
            <SelectField
              id={id("difficulty")}
              label="Difficulty"
              value={values.difficulty}
              options={GUIDE_DIFFICULTIES.map((value) => ({ value, label: capitalize(value) }))}
              onChange={(difficulty) => set("difficulty", difficulty)}
              error={errors.difficulty}
            />
            <NumberField
              id={id("estimatedReadTime")}
              label="Read time (minutes)"
              value={values.estimatedReadTime}
              onChange={(estimatedReadTime) => set("estimatedReadTime", estimatedReadTime)}
              error={errors.estimatedReadTime}
            />
          </div>
          <SwitchField
            id={id("isPublished")}
            label="Published"
            checked={values.isPublished}
            onChange={(isPublished) => set("isPublished", isPublished)}
          />
          <SwitchField id={id("featured")} label="Featured" checked={values.featured} onChange={(featured) => set("featured", featured)} />
          <DialogFooter className="sm:col-span-2">
            <FormActions pending={pending} submitLabel={guide ? "Update Guide" : "Create Guide"} onCancel={() => leave(onClose)} />
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
