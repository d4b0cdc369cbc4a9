import { ImageUp, Trash2 } from "lucide-react";
import { useFetcher } from "react-router";
import { CoverPicture } from "#app/components/cover-picture.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { describedBy, Field } from "#app/components/world-form-fields.tsx";
import { COVER_MAX_BYTES, COVER_MIN_SIZE, COVER_UPLOAD_TYPES, type CoverSubject } from "#app/lib/covers.ts";

const MAX_MEGABYTES = COVER_MAX_BYTES / (1024 * 1024);
const HINT = `JPEG, PNG or WebP up to ${MAX_MEGABYTES} MB, at least ${COVER_MIN_SIZE.width} × ${COVER_MIN_SIZE.height} pixels. It is cropped to 16:9 around its subject.`;

/**
 * A world's cover on /create: uploaded on its own (checked and re-encoded as an admin's cover is),
 * not with the form's Save; without one, players see art generated from the icon and title.
 */
export function WorldCoverField({ world }: { world: CoverSubject & { id: string } }) {
  const fetcher = useFetcher<{ error: string }>();
  const busy = fetcher.state !== "idle";
  const action = `/create/${world.id}/cover`;
  return (
    <Card className="space-y-4 p-6">
      <h2 className="text-xl text-parchment">Cover</h2>
      {world.coverHash ? (
        <div className="overflow-hidden rounded-[var(--radius-card)] border border-ink-line">
          <CoverPicture game={world} sizes="320px" />
        </div>
      ) : (
        // The generated art is drawn for listed games only: a draft has none to show yet.
        <p className="text-sm text-parchment-dim">No picture uploaded: players see art generated from the world's icon and title.</p>
      )}
      <fetcher.Form method="post" action={action} encType="multipart/form-data" className="space-y-3">
        <Field id="cover" label="Cover picture" error={fetcher.data?.error} hint={HINT}>
          <Input
            id="cover"
            name="cover"
            type="file"
            accept={COVER_UPLOAD_TYPES.join(",")}
            required
            aria-invalid={fetcher.data?.error ? true : undefined}
            aria-describedby={describedBy("cover", fetcher.data?.error, HINT)}
            className="h-auto py-2"
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="secondary" disabled={busy}>
            <ImageUp aria-hidden className="size-4" />
            {busy ? "Uploading…" : world.coverHash ? "Replace cover" : "Upload cover"}
          </Button>
        </div>
      </fetcher.Form>
      {world.coverHash ? (
        <fetcher.Form method="post" action={action}>
          <Button type="submit" name="intent" value="remove" variant="ghost" size="sm" disabled={busy}>
            <Trash2 aria-hidden className="size-4" />
            Remove cover
          </Button>
        </fetcher.Form>
      ) : null}
    </Card>
  );
}
