import { Eye, Globe, Undo2 } from "lucide-react";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import type { WorldStatus } from "#app/lib/worlds.ts";

const VISIBILITIES = [
  {
    value: "unlisted",
    label: "Unlisted",
    hint: "Anyone with the link can play it. It is not listed, and search engines are asked to leave it out.",
  },
  {
    value: "public",
    label: "Public",
    hint: "Listed under Community in the catalogue, on your creator page and in search. Players can remix it: their copy starts with your Game Master instructions.",
  },
] as const;

/**
 * /create's Publish: Unlisted or Public, each publish kept as a new version, and back to a draft.
 * `refusal` is the server's sentence when a check or a limit refused the last attempt.
 */
export function WorldPublishPanel({
  world,
  refusal,
}: {
  world: { id: string; slug: string; status: WorldStatus; publishedVersion: number | null };
  refusal?: string;
}) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("worldId") === world.id;
  const published = world.status !== "draft";
  const nextVersion = (world.publishedVersion ?? 0) + 1;
  return (
    <Card className="mb-8 p-6">
      <h2 className="text-xl text-parchment">Publish</h2>
      <p className="mt-2 text-sm text-parchment-dim">
        {published
          ? `Version ${world.publishedVersion ?? 1} is published. Changes you save show to players at once; publishing again keeps them as version ${nextVersion}.`
          : "Publishing runs a few checks, then lets other players play your world. Every published version is kept."}
      </p>
      <Form method="post" className="mt-4 space-y-4">
        <input type="hidden" name="worldId" value={world.id} />
        <fieldset className="space-y-3">
          <legend className="sr-only">Who can find it</legend>
          {VISIBILITIES.map((option) => (
            <label key={option.value} className="flex gap-3 rounded-lg border border-ink-line p-3 text-parchment has-[:checked]:border-gold/60">
              <input
                type="radio"
                name="visibility"
                value={option.value}
                defaultChecked={world.status === option.value || (!published && option.value === "unlisted")}
                className="mt-1 size-4 accent-gold"
              />
              <span>
                <span className="block font-medium">{option.label}</span>
                <span className="block text-sm text-parchment-dim">{option.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {refusal ? (
          <p role="alert" className="rounded-lg border border-danger/50 bg-danger/10 px-4 py-3 text-sm text-parchment">
            {refusal}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-3">
          <Button type="submit" name="intent" value="publish" disabled={busy}>
            <Globe aria-hidden className="size-4" />
            {published ? `Publish version ${nextVersion}` : "Publish"}
          </Button>
          {published ? (
            <>
              <Button type="submit" name="intent" value="unpublish" variant="outline" disabled={busy}>
                <Undo2 aria-hidden className="size-4" />
                Unpublish
              </Button>
              <Button asChild variant="ghost">
                <Link to={`/game/${world.slug}`}>
                  <Eye aria-hidden className="size-4" />
                  Its public page
                </Link>
              </Button>
            </>
          ) : null}
        </div>
      </Form>
    </Card>
  );
}
