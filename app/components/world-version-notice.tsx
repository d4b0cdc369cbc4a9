import { RefreshCw } from "lucide-react";
import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";

/**
 * A story keeps the version of a world it began with (docs/decisions/065); when its creator has
 * published a newer one, the player may move the story to it. A plain form: the page loads again
 * with the story as it now plays.
 */
export function WorldVersionNotice({ storyId, playing, latest }: { storyId: string; playing: number; latest: number }) {
  return (
    <Form
      method="post"
      reloadDocument
      aria-label="Newer version of this world"
      className="mx-4 mb-2 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-gold/40 bg-gold/10 px-3 py-2 text-sm text-parchment sm:mx-0"
    >
      <p>{`Your story plays version ${playing} of this world; its creator has published version ${latest}.`}</p>
      <input type="hidden" name="storyId" value={storyId} />
      <Button type="submit" name="intent" value="update-world-version" size="sm" variant="outline">
        <RefreshCw aria-hidden className="size-4" />
        {`Update to version ${latest}`}
      </Button>
    </Form>
  );
}
