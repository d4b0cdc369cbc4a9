import { useState, type SubmitEvent } from "react";
import { toast } from "sonner";
import { Button } from "#app/components/ui/button.tsx";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "#app/components/ui/dialog.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import type { Guide } from "#app/db/schema.ts";
import { fieldErrorsOf, guideInputSchema, type FieldErrors } from "#app/lib/admin-forms.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { DEFAULT_READ_TIME_MINUTES, GUIDE_CATEGORIES, GUIDE_DIFFICULTIES, type GuideCategory, type GuideDifficulty } from "#app/lib/constants.ts";
import { forceSlug, slugFromTitle } from "#app/lib/slugify.ts";
import { descriptionHint, WORD_TARGETS } from "#app/lib/writing-hints.ts";
import { focusFirstError } from "./focus-first-error.ts";
import { controlProps, Field, HintText, SelectField, SwitchField } from "./form-controls.tsx";
import { capitalize } from "./icons.tsx";
import { RichTextField } from "./rich-text-field.tsx";
import { useAdminRequest } from "./use-admin-request.ts";

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
  const [values, setValues] = useState<GuideFormState>(() => ({
    title: guide?.title ?? "",
    slug: guide?.slug ?? "",
    description: guide?.description ?? "",
    content: guide?.content ?? "",
    category: guide?.category ?? "general",
    difficulty: guide?.difficulty ?? "beginner",
    estimatedReadTime: String(guide?.estimatedReadTime ?? DEFAULT_READ_TIME_MINUTES),
    isPublished: guide?.isPublished ?? true,
    featured: guide?.featured ?? false,
  }));
  // SPEC §5: a new guide's slug is generated from its title until the admin edits the slug.
  const [slugEdited, setSlugEdited] = useState(Boolean(guide));
  const [errors, setErrors] = useState<FieldErrors>({});
  const { send, pending } = useAdminRequest();

  function set<Key extends keyof GuideFormState>(key: Key, value: GuideFormState[Key]) {
    setValues((current) => ({ ...current, [key]: value }));
    setErrors(({ [key]: _cleared, ...rest }) => rest);
  }

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = guideInputSchema.safeParse(values);
    if (!checked.success) {
      const found = fieldErrorsOf(checked.error);
      setErrors(found);
      focusFirstError("guide", found);
      return;
    }
    const result = guide ? await send("PUT", `/api/admin/guides/${guide.id}`, values) : await send("POST", "/api/admin/guides", values);
    if (result.ok) {
      toast.success(guide ? ADMIN_TEXTS.guideUpdated : ADMIN_TEXTS.guideCreated);
      onClose();
      return;
    }
    setErrors(result.fieldErrors);
    focusFirstError("guide", result.fieldErrors);
    toast.error(ADMIN_TEXTS.saveErrorTitle, { description: result.error ?? ADMIN_TEXTS.somethingWentWrong });
  }

  const id = (field: keyof GuideFormState) => `guide-${field}`;

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-3xl">
        <DialogHeader>
          <DialogTitle>{guide ? "Edit Guide" : ADMIN_TEXTS.addGuide}</DialogTitle>
          <DialogDescription>Published guides are listed on /guides and have their own page.</DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
          <Field id={id("title")} label="Title" required error={errors.title}>
            <Input
              {...controlProps(id("title"), errors.title)}
              value={values.title}
              onChange={(event) => {
                const title = event.target.value;
                set("title", title);
                if (!slugEdited) set("slug", slugFromTitle(title));
              }}
            />
          </Field>
          <Field
            id={id("slug")}
            label="Slug"
            required
            error={errors.slug}
            hint={<p className="text-parchment-dim">The page is /guides/{values.slug || "…"}</p>}
          >
            <Input
              {...controlProps(id("slug"), errors.slug)}
              value={values.slug}
              spellCheck={false}
              autoCapitalize="none"
              onChange={(event) => {
                setSlugEdited(true);
                set("slug", forceSlug(event.target.value));
              }}
            />
          </Field>
          <Field
            id={id("description")}
            label="Description"
            required
            error={errors.description}
            hint={<HintText hint={descriptionHint(values.description)} />}
            className="sm:col-span-2"
          >
            <Textarea
              {...controlProps(id("description"), errors.description)}
              rows={3}
              value={values.description}
              onChange={(event) => set("description", event.target.value)}
            />
          </Field>
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
            <Field id={id("estimatedReadTime")} label="Read time (minutes)" error={errors.estimatedReadTime}>
              <Input
                {...controlProps(id("estimatedReadTime"), errors.estimatedReadTime)}
                inputMode="numeric"
                value={values.estimatedReadTime}
                onChange={(event) => set("estimatedReadTime", event.target.value)}
              />
            </Field>
          </div>
          <SwitchField id={id("isPublished")} label="Published" checked={values.isPublished} onChange={(isPublished) => set("isPublished", isPublished)} />
          <SwitchField
            id={id("featured")}
            label="Featured"
            checked={values.featured}
            onChange={(featured) => set("featured", featured)}
          />
          <DialogFooter className="sm:col-span-2">
            <Button type="button" variant="secondary" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? ADMIN_TEXTS.saving : guide ? "Update Guide" : "Create Guide"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
