import { BarChart3, Download, Play, Plus } from "lucide-react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { PageHeader, SectionHeading } from "#app/components/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { LorebookEditor } from "#app/components/admin/lorebook-editor.tsx";
import { RemixCredits } from "#app/components/world-credits.tsx";
import { Choice, describedBy, Field, ImportCard } from "#app/components/world-form-fields.tsx";
import { WorldCoverField } from "#app/components/world-cover-field.tsx";
import { WorldPublishPanel } from "#app/components/world-publish-panel.tsx";
import { WorldModerationNotice } from "#app/components/moderation/world-moderation-notice.tsx";
import { Input, Textarea } from "#app/components/ui/input.tsx";
import { DomainError, InvalidInputError, NotFoundError, RateLimitedError } from "#app/domain/errors.server.ts";
import { worldModerationNotice } from "#app/domain/moderation.server.ts";
import { publishWorld, unpublishWorld } from "#app/domain/world-publishing.server.ts";
import { findOwnWorld, listOwnWorlds, saveWorld } from "#app/domain/worlds.server.ts";
import { formRefusal } from "#app/http/errors.server.ts";
import { personalPageHeaders, requireUser } from "#app/http/guards.server.ts";
import { DIFFICULTIES, GAME_CATEGORIES, GAME_ICONS } from "#app/lib/constants.ts";
import { LORE_TEXTS } from "#app/lib/lorebook.ts";
import { CONTENT_RATINGS, PUBLISHED_STATUSES, WORLD_LIMITS, WORLD_STATUS_LABELS, worldFormSchema, type WorldFormField } from "#app/lib/worlds.ts";
import type { Route } from "./+types/create";

/** Personal: never kept by a browser or a shared cache; a refusal's Retry-After is kept. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  const headers = new Headers(actionHeaders);
  for (const [name, value] of Object.entries(personalPageHeaders())) headers.set(name, value);
  return headers;
}

/** Alternative openings the form offers at once (a card may bring more; they are kept). */
const OPENING_FIELDS = 3;
const STATUS_CHANGES = ["draft", "unlisted", "public"] as const;
const CHANGE_NOTES = {
  draft: "Your world is a draft again: only you can play it.",
  unlisted: "Published as Unlisted: anyone with the link can play it.",
  public: "Published as Public: it is listed under Community.",
} as const;
const HINTS: Partial<Record<WorldFormField, string>> = {
  prompt: "What the Game Master is told about your world. Players never see it.",
  tags: "Separate tags with commas.",
  creatorNotes: "For you alone: the Game Master never sees them.",
};

type Values = Record<Exclude<WorldFormField, "alternativeOpenings">, string> & { alternativeOpenings: string[] };

const EMPTY: Values = {
  title: "",
  tagline: "",
  description: "",
  difficulty: "Beginner",
  category: "Adventure",
  icon: "Sparkles",
  prompt: "",
  opening: "",
  alternativeOpenings: [],
  tags: "",
  contentRating: "Everyone",
  creatorNotes: "",
};

async function ownWorld(userId: string, id: string) {
  try {
    return await findOwnWorld(userId, id);
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response(error.message, { status: 404 });
    throw error;
  }
}

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const worldId = url.searchParams.get("world");
  const world = worldId ? await ownWorld(user.id, worldId) : undefined;
  const worlds = await listOwnWorlds(user.id);
  return {
    moderation: world ? await worldModerationNotice(world.id) : null,
    worlds: worlds.map((item) => ({ ...item, updatedAt: item.updatedAt.toISOString() })),
    saved: url.searchParams.has("saved"),
    changed: STATUS_CHANGES.find((status) => status === url.searchParams.get("changed")) ?? null,
    world: world
      ? {
          id: world.id,
          slug: world.slug,
          status: world.status,
          publishedVersion: world.publishedVersion,
          remixedFrom: world.remixedFrom,
          coverHash: world.coverHash,
          values: {
            title: world.title,
            tagline: world.tagline ?? "",
            description: world.description,
            difficulty: world.difficulty,
            category: world.category,
            icon: world.icon,
            prompt: world.prompt,
            opening: world.opening,
            alternativeOpenings: world.alternativeOpenings,
            tags: world.tags.join(", "),
            contentRating: world.contentRating,
            creatorNotes: world.creatorNotes,
          } satisfies Values,
        }
      : null,
  };
}

export async function action({ request }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await request.formData();
  const field = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const intent = field("intent");
  if (intent === "publish" || intent === "unpublish") return changePublication(user.id, intent, field("worldId"), field("visibility"));
  const values: Values = {
    ...(Object.fromEntries(Object.keys(EMPTY).map((name) => [name, field(name)])) as Omit<Values, "alternativeOpenings">),
    alternativeOpenings: form.getAll("alternativeOpenings").filter((value): value is string => typeof value === "string"),
  };
  const parsed = worldFormSchema.safeParse(values);
  if (!parsed.success) {
    const errors: Partial<Record<WorldFormField, string>> = {};
    for (const issue of parsed.error.issues) errors[issue.path[0] as WorldFormField] ??= issue.message;
    return data({ errors, values }, { status: 400 });
  }
  const worldId = field("worldId") || undefined;
  if (worldId) await ownWorld(user.id, worldId);
  try {
    const id = await saveWorld(user.id, parsed.data, worldId);
    return redirect(`/create?world=${id}&saved=1`);
  } catch (error) {
    // One world too many today: 429 with Retry-After, the form kept as it was.
    if (error instanceof RateLimitedError) return formRefusal(error);
    throw error;
  }
}

/** Publish as Unlisted or Public (checked, kept as a new version), or back to a draft. */
async function changePublication(userId: string, intent: "publish" | "unpublish", worldId: string, visibility: string) {
  await ownWorld(userId, worldId);
  try {
    if (intent === "unpublish") {
      await unpublishWorld(userId, worldId);
      return redirect(`/create?world=${worldId}&changed=draft`);
    }
    const status = PUBLISHED_STATUSES.find((option) => option === visibility);
    if (!status) return formRefusal(new InvalidInputError("Choose Unlisted or Public.", "visibility"));
    await publishWorld(userId, worldId, status);
    return redirect(`/create?world=${worldId}&changed=${status}`);
  } catch (error) {
    if (error instanceof DomainError) return formRefusal(error);
    throw error;
  }
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Create a world | ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

export default function Create({ loaderData, actionData }: Route.ComponentProps) {
  const { world, worlds, saved, changed, moderation } = loaderData;
  const navigation = useNavigation();
  const refused = actionData && "error" in actionData ? actionData.error : undefined;
  const formState = actionData && "values" in actionData ? actionData : undefined;
  const values = formState?.values ?? world?.values ?? EMPTY;
  const errors: Partial<Record<WorldFormField, string>> = formState?.errors ?? {};
  const openings = [...values.alternativeOpenings, ...Array<string>(Math.max(0, OPENING_FIELDS - values.alternativeOpenings.length)).fill("")];
  const text = (name: keyof Omit<Values, "alternativeOpenings">) => ({
    id: name,
    name,
    defaultValue: values[name],
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": describedBy(name, errors[name], HINTS[name]),
  });
  return (
    <>
      <PageHeader
        eyebrow="Create"
        title={world ? values.title || "Your world" : "Create a world"}
        description="Write the world a Game Master will run: its instructions, its opening and how it is shown. It stays a draft, seen by you alone, until you publish it."
      />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 lg:grid-cols-[1fr_320px]">
        <div>
          {(saved || changed) && world ? (
            <p role="status" className="mb-6 rounded-lg border border-gold/40 bg-gold/10 px-4 py-3 text-parchment">
              {changed ? CHANGE_NOTES[changed] : world.status === "draft" ? "Your draft is saved." : "Your changes are saved."}
            </p>
          ) : null}
          {world && world.remixedFrom.length > 0 ? (
            <div className="mb-6">
              <RemixCredits credits={world.remixedFrom} />
            </div>
          ) : null}
          {refused && !world ? (
            <p role="alert" className="mb-6 rounded-lg border border-danger/50 bg-danger/10 px-4 py-3 text-parchment">
              {refused}
            </p>
          ) : null}
          {world ? (
            <div className="mb-8 flex flex-wrap items-center gap-3">
              <span className="rounded-full border border-ink-line px-3 py-1 text-sm text-parchment-dim">{WORLD_STATUS_LABELS[world.status]}</span>
              <Button asChild size="sm">
                <Link to={`/play/${world.slug}`}>
                  <Play aria-hidden className="size-4" />
                  {world.status === "draft" ? "Play privately" : "Play"}
                </Link>
              </Button>
              <Button asChild variant="outline" size="sm">
                <a href={`/create/${world.id}/card/json`} download>
                  <Download aria-hidden className="size-4" />
                  Export as JSON card
                </a>
              </Button>
              <Button asChild variant="outline" size="sm">
                <a href={`/create/${world.id}/card/png`} download>
                  <Download aria-hidden className="size-4" />
                  Export as PNG card
                </a>
              </Button>
            </div>
          ) : null}
          {moderation ? <WorldModerationNotice notice={moderation} /> : null}
          {world ? <WorldPublishPanel world={world} refusal={refused} /> : null}
          {/* Keyed by the world: its fields are uncontrolled, and another world's must not keep this one's values. */}
          <Form key={world?.id ?? "new"} method="post" className="space-y-6" noValidate>
            {world ? <input type="hidden" name="worldId" value={world.id} /> : null}
            <Field id="title" label="Title" error={errors.title}>
              <Input {...text("title")} maxLength={WORLD_LIMITS.title} required />
            </Field>
            <Field id="tagline" label="Tagline" error={errors.tagline}>
              <Input {...text("tagline")} maxLength={WORLD_LIMITS.tagline} />
            </Field>
            <Field id="description" label="Description" error={errors.description}>
              <Textarea {...text("description")} rows={3} required />
            </Field>
            <div className="grid gap-6 sm:grid-cols-3">
              <Choice name="difficulty" label="Difficulty" options={DIFFICULTIES} value={values.difficulty} error={errors.difficulty} />
              <Choice name="category" label="Category" options={GAME_CATEGORIES} value={values.category} error={errors.category} />
              <Choice name="icon" label="Icon" options={GAME_ICONS} value={values.icon} error={errors.icon} />
            </div>
            <Field id="prompt" label="Game Master instructions" error={errors.prompt} hint={HINTS.prompt}>
              <Textarea {...text("prompt")} rows={10} required />
            </Field>
            <Field id="opening" label="Opening message" error={errors.opening}>
              <Textarea {...text("opening")} rows={4} />
            </Field>
            <fieldset className="space-y-3">
              <legend className="text-sm font-medium text-parchment">Alternative openings</legend>
              {openings.map((opening, index) => (
                <Textarea
                  key={index}
                  name="alternativeOpenings"
                  aria-label={`Alternative opening ${index + 1}`}
                  defaultValue={opening}
                  rows={2}
                  aria-invalid={errors.alternativeOpenings ? true : undefined}
                />
              ))}
              {errors.alternativeOpenings ? <p className="text-sm text-danger">{errors.alternativeOpenings}</p> : null}
            </fieldset>
            <div className="grid gap-6 sm:grid-cols-2">
              <Field id="tags" label="Tags" error={errors.tags} hint={HINTS.tags}>
                <Input {...text("tags")} placeholder="court intrigue, historical" />
              </Field>
              <Choice
                name="contentRating"
                label="Content rating"
                options={CONTENT_RATINGS}
                value={values.contentRating}
                error={errors.contentRating}
              />
            </div>
            <Field id="creatorNotes" label="Creator notes" error={errors.creatorNotes} hint={HINTS.creatorNotes}>
              <Textarea {...text("creatorNotes")} rows={3} />
            </Field>
            <Button type="submit" size="lg" disabled={navigation.state === "submitting"}>
              {navigation.state === "submitting" ? "Saving…" : world && world.status !== "draft" ? "Save changes" : "Save draft"}
            </Button>
          </Form>
          {world ? (
            <div className="mt-10">
              <LorebookEditor base={`/api/worlds/${world.id}/lore`} empty={LORE_TEXTS.worldEmpty} heading="h2" />
            </div>
          ) : null}
        </div>
        <aside className="space-y-6">
          {world ? (
            <WorldCoverField
              world={{ id: world.id, slug: world.slug, title: world.values.title, icon: world.values.icon, coverHash: world.coverHash }}
            />
          ) : null}
          <ImportCard />
          <Button asChild variant="outline" className="w-full">
            <Link to="/create/dashboard">
              <BarChart3 aria-hidden className="size-4" />
              Creator dashboard
            </Link>
          </Button>
          <p className="text-sm text-parchment-dim">
            Worlds rated Mature are shown only to players who confirm their age in their{" "}
            <Link to="/settings" className="text-gold underline underline-offset-4">
              settings
            </Link>
            .
          </p>
          <section aria-labelledby="my-worlds">
            <SectionHeading id="my-worlds" title="My worlds" />
            {worlds.length === 0 ? (
              <p className="mt-3 text-sm text-parchment-dim">Worlds you save or import appear here.</p>
            ) : (
              <ul className="mt-3 space-y-2">
                {worlds.map((item) => (
                  <li key={item.id}>
                    <Link
                      to={`/create?world=${item.id}`}
                      className="flex items-center justify-between gap-3 rounded-lg border border-ink-line px-4 py-3 text-parchment hover:border-gold/50"
                    >
                      <span className="truncate">{item.title}</span>
                      <span className="shrink-0 text-xs text-parchment-dim">{WORLD_STATUS_LABELS[item.status]}</span>
                    </Link>
                  </li>
                ))}
              </ul>
            )}
            {world ? (
              <Button asChild variant="ghost" className="mt-3">
                <Link to="/create">
                  <Plus aria-hidden className="size-4" />
                  New world
                </Link>
              </Button>
            ) : null}
          </section>
        </aside>
      </div>
    </>
  );
}
