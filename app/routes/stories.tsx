import { BookOpen, Download, GitBranch, Pencil, Play, Trash2 } from "lucide-react";
import { useState } from "react";
import { Link, useRevalidator } from "react-router";
import { CoverPicture } from "#app/components/cover-picture.tsx";
import { toast } from "#app/components/toast.ts";
import { PageHeader } from "#app/components/page-header.tsx";
import { LocalTime } from "#app/components/play/local-time.tsx";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "#app/components/ui/dialog.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { storyFamilies } from "#app/domain/story-branches.server.ts";
import { listStories, type StorySummary } from "#app/domain/story-library.server.ts";
import { personalPageHeaders, requireUser } from "#app/http/guards.server.ts";
import { MAX_TITLE_LENGTH, STORY_EXPORT_FORMATS } from "#app/lib/story-view.ts";
import type { Route } from "./+types/stories";

/** Personal: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;

export async function loader({ request }: Route.LoaderArgs) {
  const user = await requireUser(request);
  const card = <T extends StorySummary>(story: T) => ({
    ...story,
    createdAt: story.createdAt.toISOString(),
    updatedAt: story.updatedAt.toISOString(),
  });
  return {
    families: storyFamilies(await listStories(user.id)).map(({ root, branches }) => ({ root: card(root), branches: branches.map(card) })),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `My Stories | ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

type StoryCard = Route.ComponentProps["loaderData"]["families"][number]["root"];

async function storyRequest(storyId: string, method: "PATCH" | "DELETE", body?: unknown) {
  const response = await fetch(`/api/stories/${storyId}`, {
    method,
    headers: { Accept: "application/json", ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) {
    const answer = (await response.json().catch(() => ({}))) as { error?: string };
    throw new Error(answer.error ?? "The story could not be changed. Please try again.");
  }
}

function RenameDialog({ story, open, onOpenChange }: { story: StoryCard; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [title, setTitle] = useState(story.title);
  const [saving, setSaving] = useState(false);
  const { revalidate } = useRevalidator();
  async function save(event: React.SyntheticEvent) {
    event.preventDefault();
    setSaving(true);
    try {
      await storyRequest(story.id, "PATCH", { title });
      toast.success("Story renamed");
      onOpenChange(false);
      await revalidate();
    } catch (error) {
      toast.error("Error", { description: (error as Error).message });
    } finally {
      setSaving(false);
    }
  }
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogTitle>Rename story</DialogTitle>
        <DialogDescription>A title of your own, shown in My Stories and on exports.</DialogDescription>
        <form onSubmit={(event) => void save(event)} className="mt-4 flex flex-col gap-4">
          <div className="flex flex-col gap-2">
            <Label htmlFor={`title-${story.id}`}>Title</Label>
            <Input
              id={`title-${story.id}`}
              value={title}
              maxLength={MAX_TITLE_LENGTH}
              onChange={(event) => setTitle(event.target.value)}
              autoFocus
            />
          </div>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving || !title.trim()}>
              {saving ? "Saving..." : "Save title"}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function StoryItem({ story, branches = [], depth = 0 }: { story: StoryCard; branches?: (StoryCard & { depth: number })[]; depth?: number }) {
  const [renaming, setRenaming] = useState(false);
  const { revalidate } = useRevalidator();
  async function remove() {
    try {
      await storyRequest(story.id, "DELETE");
      toast.success("Story deleted");
      await revalidate();
    } catch (error) {
      toast.error("Error", { description: (error as Error).message });
    }
  }
  return (
    <li
      className={depth > 0 ? "border-l-2 border-gold/40 pl-2 sm:pl-3" : undefined}
      style={depth > 1 ? { marginLeft: `${String(Math.min(depth - 1, 3))}rem` } : undefined}
    >
      <Card className="grid gap-x-5 overflow-hidden sm:grid-cols-[12rem_minmax(0,1fr)]">
        <Link
          to={`/game/${story.gameSlug}`}
          tabIndex={-1}
          aria-hidden
          className="block overflow-hidden border-b border-ink-line sm:my-5 sm:ml-5 sm:self-start sm:rounded-lg sm:border"
        >
          <CoverPicture
            game={{ slug: story.gameSlug, title: story.gameTitle, icon: story.gameIcon, coverHash: story.gameCoverHash }}
            sizes="(min-width: 640px) 192px, calc(100vw - 34px)"
          />
        </Link>
        <div className="flex min-w-0 flex-col gap-3 p-5 sm:pl-0">
          <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
            <h2 className="text-2xl leading-tight">{story.title}</h2>
            <p className="text-sm text-parchment-dim">
              {story.gameTitle} · {story.exchanges} {story.exchanges === 1 ? "turn" : "turns"} · last played{" "}
              {/* The time is filled in once the page runs (the reader's time zone): its room is kept
                  from the start, so nothing on the card moves, and no early click misses, when it appears. */}
              <LocalTime iso={story.updatedAt} className="inline-block min-w-[8.5rem] whitespace-nowrap" />
            </p>
          </div>
          {story.parentStoryId ? (
            <p className="text-sm text-parchment-dim">
              <GitBranch className="mr-1 inline size-4 align-text-bottom" aria-hidden />
              Shares its first {story.forkExchange} {story.forkExchange === 1 ? "turn" : "turns"} with the story it was branched from.
            </p>
          ) : null}
          {story.latestLines ? (
            <p className="line-clamp-3 text-parchment-dim">{story.latestLines}</p>
          ) : (
            <p className="text-parchment-dim">Not begun yet.</p>
          )}
          <div className="flex flex-wrap items-center gap-2">
            <Button asChild size="sm">
              <Link to={`/play/${story.gameSlug}/${story.id}`} aria-label={`Resume ${story.title}`}>
                <Play aria-hidden />
                Resume
              </Link>
            </Button>
            <Button variant="ghost" size="sm" onClick={() => setRenaming(true)} aria-label={`Rename ${story.title}`}>
              <Pencil aria-hidden />
              Rename
            </Button>
            {STORY_EXPORT_FORMATS.map(({ format, label }) => (
              <Button key={format} asChild variant="ghost" size="sm">
                <a href={`/api/stories/${story.id}/export?format=${format}`} download aria-label={`Export ${story.title} as ${label}`}>
                  <Download aria-hidden />
                  {label}
                </a>
              </Button>
            ))}
            <AlertDialog>
              <AlertDialogTrigger asChild>
                <Button variant="ghost" size="sm" className="ml-auto text-parchment-dim" aria-label={`Delete ${story.title}`}>
                  <Trash2 aria-hidden />
                  Delete
                </Button>
              </AlertDialogTrigger>
              <AlertDialogContent>
                <AlertDialogTitle>Delete this story?</AlertDialogTitle>
                <AlertDialogDescription>
                  “{story.title}” in {story.gameTitle} and all {story.exchanges} of its turns will be deleted. This cannot be undone; export it
                  first to keep a copy.
                </AlertDialogDescription>
                <AlertDialogFooter className="mt-6">
                  <AlertDialogCancel>Keep it</AlertDialogCancel>
                  <AlertDialogAction onClick={() => void remove()}>Delete story</AlertDialogAction>
                </AlertDialogFooter>
              </AlertDialogContent>
            </AlertDialog>
          </div>
        </div>
      </Card>
      <RenameDialog story={story} open={renaming} onOpenChange={setRenaming} />
      {branches.length > 0 ? (
        <ul aria-label={`Branches of ${story.title}`} className="mt-2 flex flex-col gap-2">
          {branches.map((branch) => (
            <StoryItem key={branch.id} story={branch} depth={branch.depth} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}

/** My Stories: every story of the player, the most recently played first. */
export default function Stories({ loaderData }: Route.ComponentProps) {
  const { families } = loaderData;
  return (
    <div className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <PageHeader
        title="My Stories"
        description="Every story you have begun, the most recently played first, each with the branches made from it. Resume one, rename it, export it or let it go."
      />
      {families.length === 0 ? (
        <div className="mt-10 flex flex-col items-center gap-4 text-center text-parchment-dim">
          <BookOpen className="size-10 text-gold" aria-hidden strokeWidth={1.5} />
          <p>You have not begun a story yet.</p>
          <Button asChild>
            <Link to="/games">Choose a game</Link>
          </Button>
        </div>
      ) : (
        <ul className="mt-10 flex flex-col gap-4">
          {families.map(({ root, branches }) => (
            <StoryItem key={root.id} story={root} branches={branches} />
          ))}
        </ul>
      )}
    </div>
  );
}
