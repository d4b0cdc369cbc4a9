import { Layers } from "lucide-react";
import { useEffect, useState, type SubmitEvent } from "react";
import { toast } from "#app/components/toast.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { fieldErrorsOf, sectionsInputSchema, type FieldErrors } from "#app/lib/admin-forms.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { MULTI_SECTION_TYPES } from "#app/lib/constants.ts";
import { WORD_TARGETS } from "#app/lib/writing-hints.ts";
import { focusFirstError } from "./focus-first-error.ts";
import { controlProps, EmptyState, Field, LoadFailed, NumberField, PublishedIndicator, SelectField, SwitchField } from "./form-controls.tsx";
import { CONTENT_TYPE_ICONS, contentTypeLabel } from "./icons.tsx";
import type { AdminContent, GameChoice } from "./panel-data.ts";
import { RichTextField } from "./rich-text-field.tsx";
import { useUnsavedChanges } from "./unsaved-changes.tsx";
import { useAdminRequest } from "./use-admin-request.ts";

type SectionType = (typeof MULTI_SECTION_TYPES)[number]["contentType"];

interface SectionState {
  id: string | null;
  contentType: SectionType;
  title: string;
  content: string;
  sectionOrder: string;
  isPublished: boolean;
}

interface SaveResult {
  updated: number;
  created: number;
  skipped: SectionType[];
  ids: Partial<Record<SectionType, string>>;
}

/** Each section edits the record the public page shows: the game's first of that type. */
function sectionsOf(content: AdminContent[], gameSlug: string): SectionState[] {
  return MULTI_SECTION_TYPES.map(({ contentType }) => {
    const record = content.find((item) => item.gameSlug === gameSlug && item.contentType === contentType);
    return {
      id: record?.id ?? null,
      contentType,
      title: record?.title ?? "",
      content: record?.content ?? "",
      sectionOrder: record ? String(record.sectionOrder) : "",
      isPublished: record?.isPublished ?? true,
    };
  });
}

function savedSummary({ updated, created, skipped }: SaveResult) {
  const parts = [`${updated} updated`, `${created} created`];
  const note = skipped.length ? ` Skipped (needs both a title and content): ${skipped.map(contentTypeLabel).join(", ")}.` : "";
  return `${parts.join(", ")}.${note}`;
}

/** SPEC's Multi-Section Editor: the six world and strategy sections of one game, saved together. */
export function MultiSectionEditor({ content, games }: { content: AdminContent[] | null; games: GameChoice[] }) {
  const [gameSlug, setGameSlug] = useState("");
  const [gameError, setGameError] = useState<string>();
  const [dirty, setDirty] = useState(false);
  // Another game opens a fresh form: edits to this one not yet saved are asked about first.
  const confirmLeave = useUnsavedChanges(dirty);
  const initial = content ? sectionsOf(content, gameSlug) : [];

  return (
    <section aria-labelledby="sections-heading" className="space-y-5">
      <div>
        <h2 id="sections-heading" className="text-3xl">
          Multi-Section Editor
        </h2>
        <p className="text-sm text-parchment-dim">
          Edit a game's story background, characters, world and strategy sections at once. They are saved together.
        </p>
      </div>
      <SelectField
        id="sections-gameSlug"
        label="Game"
        placeholder="Choose a game"
        className="w-full sm:w-80"
        value={gameSlug}
        options={games.map((game) => ({ value: game.slug, label: game.title }))}
        onChange={(slug) =>
          confirmLeave(() => {
            setDirty(false);
            setGameSlug(slug);
            setGameError(undefined);
          })
        }
        error={gameError}
      />
      {content === null ? (
        <LoadFailed message={ADMIN_TEXTS.contentLoadFailed} />
      ) : (
        // The form starts again from the stored sections only when the game changes: fresh data after a
        // save must not overwrite what the admin typed since.
        <SectionsForm
          key={gameSlug}
          gameSlug={gameSlug}
          initial={initial}
          onDirtyChange={setDirty}
          onMissingGame={() => setGameError(ADMIN_TEXTS.selectGame)}
        />
      )}
    </section>
  );
}

function SectionsForm({
  gameSlug,
  initial,
  onDirtyChange,
  onMissingGame,
}: {
  gameSlug: string;
  initial: SectionState[];
  onDirtyChange: (dirty: boolean) => void;
  onMissingGame: () => void;
}) {
  const [sections, setSections] = useState(initial);
  // What the database holds now: the sections as opened, then as last saved.
  const [stored, setStored] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { send, pending } = useAdminRequest();
  const dirty = JSON.stringify(sections) !== JSON.stringify(stored);
  useEffect(() => onDirtyChange(dirty), [dirty, onDirtyChange]);

  function update(index: number, change: Partial<SectionState>) {
    setSections((current) => current.map((section, at) => (at === index ? { ...section, ...change } : section)));
    setErrors((current) =>
      Object.fromEntries(Object.entries(current).filter(([key]) => !Object.keys(change).some((field) => key === `sections.${index}.${field}`))),
    );
  }

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { gameSlug, sections };
    const checked = sectionsInputSchema.safeParse(body);
    if (!checked.success) {
      const found = fieldErrorsOf(checked.error);
      if (found.gameSlug) {
        onMissingGame();
        toast.error(ADMIN_TEXTS.selectGame);
        document.getElementById("sections-gameSlug")?.focus();
        return;
      }
      setErrors(found);
      focusFirstError("section", found);
      return;
    }
    const result = await send<SaveResult>("PUT", "/api/admin/game-content/sections", body);
    if (result.ok) {
      const { ids } = result.data;
      const saved = sections.map((section) => ({ ...section, id: ids[section.contentType] ?? section.id }));
      setSections(saved);
      setStored(saved);
      toast.success(ADMIN_TEXTS.sectionsSaved, { description: savedSummary(result.data) });
      return;
    }
    setErrors(result.fieldErrors);
    focusFirstError("section", result.fieldErrors);
    toast.error(ADMIN_TEXTS.saveErrorTitle, { description: result.error ?? ADMIN_TEXTS.somethingWentWrong });
  }

  return (
    <form noValidate onSubmit={submit} className="space-y-4">
      {gameSlug ? (
        sections.map((section, index) => (
          <SectionCard
            key={section.contentType}
            index={index}
            section={section}
            errors={errors}
            placeholderOrder={MULTI_SECTION_TYPES[index]?.sectionOrder ?? 0}
            onChange={(change) => update(index, change)}
          />
        ))
      ) : (
        <EmptyState icon={<Layers />} title="Choose a game to edit its sections">
          <p className="max-w-md text-sm text-parchment-dim">
            Story Background, Character Development, World Setting, Beginner Tips, Advanced Strategies and Community Insights — all on one page.
          </p>
        </EmptyState>
      )}
      <div className="sticky bottom-0 z-10 -mx-1 flex justify-end border-t border-ink-line bg-ink/95 px-1 py-3 backdrop-blur">
        <Button type="submit" disabled={pending}>
          {pending ? ADMIN_TEXTS.saving : "Save All Sections"}
        </Button>
      </div>
    </form>
  );
}

function SectionCard({
  index,
  section,
  errors,
  placeholderOrder,
  onChange,
}: {
  index: number;
  section: SectionState;
  errors: FieldErrors;
  placeholderOrder: number;
  onChange: (change: Partial<SectionState>) => void;
}) {
  const Icon = CONTENT_TYPE_ICONS[section.contentType];
  const label = contentTypeLabel(section.contentType);
  const id = (field: string) => `section-sections-${index}-${field}`;
  const error = (field: string) => errors[`sections.${index}.${field}`];

  return (
    <fieldset className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4 sm:p-5">
      <legend className="sr-only">{label}</legend>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <Icon className="size-5 text-gold" strokeWidth={1.75} aria-hidden />
          <h3 className="font-display text-2xl">{label}</h3>
        </div>
        {section.id ? (
          <PublishedIndicator published={section.isPublished} />
        ) : (
          <Badge variant="outline">New — saved when title and content are filled in</Badge>
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
        <Field id={id("title")} label="Title" error={error("title")}>
          <Input
            {...controlProps(id("title"), error("title"))}
            value={section.title}
            placeholder={`${label} title`}
            onChange={(event) => onChange({ title: event.target.value })}
          />
        </Field>
        <NumberField
          id={id("sectionOrder")}
          label="Order"
          value={section.sectionOrder}
          placeholder={String(placeholderOrder)}
          onChange={(sectionOrder) => onChange({ sectionOrder })}
          error={error("sectionOrder")}
        />
        <div className="sm:col-span-2">
          <RichTextField
            id={id("content")}
            label="Content"
            value={section.content}
            onChange={(content) => onChange({ content })}
            error={error("content")}
            wordTarget={WORD_TARGETS.multiSection}
            rows={8}
          />
        </div>
        <div className="sm:col-span-2">
          <SwitchField
            id={id("isPublished")}
            label="Published"
            checked={section.isPublished}
            onChange={(isPublished) => onChange({ isPublished })}
          />
        </div>
      </div>
    </fieldset>
  );
}
