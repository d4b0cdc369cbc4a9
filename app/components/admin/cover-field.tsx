import { ImageUp, Trash2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import { CoverPicture } from "#app/components/cover-picture.tsx";
import { toast } from "#app/components/toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import type { Game } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { COVER_MAX_BYTES, COVER_MIN_SIZE, COVER_UPLOAD_TYPES } from "#app/lib/covers.ts";
import { useAdminRequest } from "./use-admin-request.ts";

const MAX_MEGABYTES = COVER_MAX_BYTES / (1024 * 1024);

/**
 * The game's cover in its editor: the picture players see, an upload that replaces it at once
 * (not with the form's Save: the picture is checked and re-encoded on its own), and the way back
 * to the generated art.
 */
export function CoverField({ game }: { game: Game }) {
  const [coverHash, setCoverHash] = useState(game.coverHash);
  const [error, setError] = useState<string>();
  const { send, pending } = useAdminRequest();
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const url = `/api/admin/games/${game.id}/cover`;

  async function upload(file: File | undefined) {
    if (input.current) input.current.value = "";
    if (!file) return;
    if (file.size > COVER_MAX_BYTES) {
      setError(`The picture is larger than ${MAX_MEGABYTES} MB. Export a smaller one and upload it again.`);
      return;
    }
    setError(undefined);
    const result = await send<{ coverHash: string }>("PUT", url, file);
    if (result.ok) {
      setCoverHash(result.data.coverHash);
      toast.success(ADMIN_TEXTS.coverUploaded);
    } else {
      setError(result.error ?? ADMIN_TEXTS.coverUploadFailed);
    }
  }

  async function remove() {
    setError(undefined);
    const result = await send<{ coverHash: null }>("DELETE", url);
    if (result.ok) {
      setCoverHash(null);
      toast.success(ADMIN_TEXTS.coverRemoved);
    } else {
      toast.error(ADMIN_TEXTS.coverRemoveFailed, { description: result.error });
    }
  }

  return (
    <fieldset className="grid gap-4 sm:grid-cols-[16rem_minmax(0,1fr)] md:col-span-2" aria-describedby={`${id}-note`}>
      <legend className="mb-1.5 text-sm font-medium text-parchment">Cover art</legend>
      <div className="overflow-hidden rounded-[var(--radius-card)] border border-ink-line">
        <CoverPicture game={{ ...game, coverHash }} sizes="256px" />
      </div>
      <div className="flex flex-col gap-3">
        <p className="text-sm text-parchment-dim">
          {coverHash
            ? "Players see this picture on the game's card, its page, My Stories and link previews."
            : "No picture uploaded: players see art generated from the game's icon and title."}
        </p>
        <div className="flex flex-wrap gap-2">
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            accept={COVER_UPLOAD_TYPES.join(",")}
            className="sr-only"
            // Keyboard and screen-reader users use the button below; the input only opens the file chooser.
            tabIndex={-1}
            aria-label="Cover picture file"
            aria-describedby={`${id}-note`}
            disabled={pending}
            onChange={(event) => void upload(event.target.files?.[0])}
          />
          <Button type="button" variant="secondary" size="sm" disabled={pending} onClick={() => input.current?.click()}>
            <ImageUp aria-hidden />
            {pending ? "Uploading..." : coverHash ? "Replace cover" : "Upload cover"}
          </Button>
          {coverHash ? (
            <Button type="button" variant="ghost" size="sm" disabled={pending} onClick={() => void remove()}>
              <Trash2 aria-hidden />
              Remove cover
            </Button>
          ) : null}
        </div>
        <div id={`${id}-note`} className="text-xs" aria-live="polite">
          {error ? (
            <p className="font-medium text-danger">{error}</p>
          ) : (
            <p className="text-parchment-dim">
              JPEG, PNG or WebP up to {MAX_MEGABYTES} MB, at least {COVER_MIN_SIZE.width} × {COVER_MIN_SIZE.height} pixels. It is cropped to 16:9
              around its subject.
            </p>
          )}
        </div>
      </div>
    </fieldset>
  );
}
