import { ArrowLeft } from "lucide-react";
import { Button } from "#app/components/ui/button.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import type { Game } from "#app/db/schema.ts";
import { gameInputSchema } from "#app/lib/admin-forms.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { LORE_TEXTS } from "#app/lib/lorebook.ts";
import type { GameModelChoices } from "#app/lib/game-models.ts";
import { statDraft, type TrackedStatDraft } from "#app/lib/tracked-stats.ts";
import { DIFFICULTIES, GAME_CATEGORIES, GAME_ICONS, type Difficulty, type GameCategory, type GameIcon } from "#app/lib/constants.ts";
import { CoverField } from "./cover-field.tsx";
import { controlProps, DescriptionField, Field, FormActions, NumberField, SelectField, SwitchField } from "./form-controls.tsx";
import { GameModelFields } from "./game-model-fields.tsx";
import { GAME_ICON_COMPONENTS, iconOptions } from "./icons.tsx";
import { LorebookEditor } from "./lorebook-editor.tsx";
import { TitleAndSlugFields } from "./title-slug-fields.tsx";
import { TrackedStatsField } from "./tracked-stats-field.tsx";
import { useAdminForm } from "./use-admin-form.ts";

interface GameFormState {
  title: string;
  slug: string;
  description: string;
  prompt: string;
  tagline: string;
  icon: GameIcon;
  difficulty: Difficulty;
  category: GameCategory;
  players: string;
  sortOrder: string;
  isActive: boolean;
  trackedStats: TrackedStatDraft[];
  /** "": the site's model; the budget as typed, "": the site's. */
  model: string;
  contextTokens: string;
}

function initialState(game?: Game): GameFormState {
  return {
    title: game?.title ?? "",
    slug: game?.slug ?? "",
    description: game?.description ?? "",
    prompt: game?.prompt ?? "",
    tagline: game?.tagline ?? "",
    icon: (GAME_ICONS as readonly string[]).includes(game?.icon ?? "") ? (game?.icon as GameIcon) : "Crown",
    difficulty: game?.difficulty ?? "Beginner",
    category: game?.category ?? "Adventure",
    players: game?.players ?? "",
    sortOrder: String(game?.sortOrder ?? 0),
    isActive: game?.isActive ?? true,
    trackedStats: game?.trackedStats.map(statDraft) ?? [],
    model: game?.model ?? "",
    contextTokens: game?.contextTokens ? String(game.contextTokens) : "",
  };
}

const ICON_OPTIONS = iconOptions(GAME_ICON_COMPONENTS, GAME_ICONS, (name) => name);

/** The game form of docs/spec.md §5: creates a game, or updates the one it was opened on. */
export function GameForm({ game, models, onClose }: { game?: Game; models: GameModelChoices | null | undefined; onClose: () => void }) {
  const { values, errors, set, submit, pending, id, leave } = useAdminForm({
    prefix: "game",
    initial: () => initialState(game),
    schema: gameInputSchema,
    endpoint: game ? { method: "PUT", url: `/api/admin/games/${game.id}` } : { method: "POST", url: "/api/admin/games" },
    savedMessage: game ? ADMIN_TEXTS.gameUpdated : ADMIN_TEXTS.gameCreated,
    failure: { title: ADMIN_TEXTS.gameSaveFailed },
    onSaved: onClose,
  });

  return (
    <section aria-labelledby="game-form-heading" className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-ink-line px-5 py-4 sm:px-6">
        <div>
          <h2 id="game-form-heading" className="text-3xl">
            {game ? `Edit ${game.title}` : ADMIN_TEXTS.addNewGame}
          </h2>
          <p className="text-sm text-parchment-dim">Fields marked * are required.</p>
        </div>
        <Button variant="ghost" size="sm" onClick={() => leave(onClose)} disabled={pending}>
          <ArrowLeft aria-hidden />
          Back to games
        </Button>
      </div>
      <form noValidate onSubmit={submit} className="grid gap-5 p-5 sm:p-6 md:grid-cols-2">
        <TitleAndSlugFields
          prefix="game"
          title={values.title}
          slug={values.slug}
          errors={errors}
          isNew={!game}
          pagePath="/game/"
          slugRule="Lowercase letters, digits and '-'."
          autoFocus
          onTitleChange={(title) => set("title", title)}
          onSlugChange={(slug) => set("slug", slug)}
        />
        {game ? (
          <CoverField game={game} />
        ) : (
          <p className="text-sm text-parchment-dim md:col-span-2">
            Cover art: create the game first, then upload its picture here. Until then it shows art generated from its icon and title.
          </p>
        )}
        <Field id={id("tagline")} label="Tagline" error={errors.tagline}>
          <Input
            {...controlProps(id("tagline"), errors.tagline)}
            value={values.tagline}
            onChange={(event) => set("tagline", event.target.value)}
          />
        </Field>
        <Field id={id("players")} label="Players" error={errors.players} hint={<p className="text-parchment-dim">For example: Single player</p>}>
          <Input
            {...controlProps(id("players"), errors.players)}
            value={values.players}
            onChange={(event) => set("players", event.target.value)}
          />
        </Field>
        <DescriptionField
          id={id("description")}
          value={values.description}
          onChange={(description) => set("description", description)}
          error={errors.description}
          className="md:col-span-2"
        />
        <Field
          id={id("prompt")}
          label="Prompt"
          required
          error={errors.prompt}
          hint={<p className="text-parchment-dim">The Game Master's instructions: setting, role, tone and rules. Players never see it.</p>}
          className="md:col-span-2"
        >
          <Textarea
            {...controlProps(id("prompt"), errors.prompt)}
            rows={10}
            value={values.prompt}
            onChange={(event) => set("prompt", event.target.value)}
            className="font-mono text-sm"
          />
        </Field>
        <div className="grid gap-5 sm:grid-cols-2 md:col-span-2 lg:grid-cols-4">
          <SelectField
            id={id("icon")}
            label="Icon"
            value={values.icon}
            options={ICON_OPTIONS}
            onChange={(icon) => set("icon", icon)}
            error={errors.icon}
          />
          <SelectField
            id={id("difficulty")}
            label="Difficulty"
            value={values.difficulty}
            options={DIFFICULTIES.map((value) => ({ value, label: value }))}
            onChange={(difficulty) => set("difficulty", difficulty)}
            error={errors.difficulty}
          />
          <SelectField
            id={id("category")}
            label="Category"
            value={values.category}
            options={GAME_CATEGORIES.map((value) => ({ value, label: value }))}
            onChange={(category) => set("category", category)}
            error={errors.category}
          />
          <NumberField
            id={id("sortOrder")}
            label="Sort order"
            value={values.sortOrder}
            onChange={(sortOrder) => set("sortOrder", sortOrder)}
            error={errors.sortOrder}
            hint="Lower numbers come first."
          />
        </div>
        <GameModelFields
          id={id}
          game={game}
          choices={models}
          model={values.model}
          contextTokens={values.contextTokens}
          errors={errors}
          onModelChange={(model) => set("model", model)}
          onContextTokensChange={(contextTokens) => set("contextTokens", contextTokens)}
        />
        <TrackedStatsField
          prefix="game"
          stats={values.trackedStats}
          errors={errors}
          onChange={(trackedStats) => set("trackedStats", trackedStats)}
        />
        {game ? <LorebookEditor base={`/api/admin/games/${game.id}/lore`} empty={LORE_TEXTS.empty} heading="h3" /> : null}
        <div className="md:col-span-2">
          <SwitchField
            id={id("isActive")}
            label="Active"
            description="Inactive games are hidden from players and from this list."
            checked={values.isActive}
            onChange={(isActive) => set("isActive", isActive)}
          />
        </div>
        <div className="flex flex-col-reverse gap-2 border-t border-ink-line pt-5 sm:flex-row sm:justify-end md:col-span-2">
          <FormActions pending={pending} submitLabel={game ? "Update Game" : "Create Game"} onCancel={() => leave(onClose)} />
        </div>
      </form>
    </section>
  );
}
