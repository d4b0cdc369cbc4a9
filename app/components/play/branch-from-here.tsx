import { useState } from "react";
import { useNavigate } from "react-router";
import { toast } from "#app/components/toast.ts";
import { ControlButton } from "./control-button.tsx";
import { ReplyIcon } from "./reply-icons.tsx";
import { useStory } from "./story-provider.tsx";
import type { ChatMessage } from "./story-state.ts";

/** Where a story's Branches view is (app/routes/story-branches.tsx). */
export function branchesPath(storyId: string) {
  return `/stories/${storyId}/branches`;
}

/**
 * Branch from here, under a reply: a new story that shares this one up to the reply's exchange
 * and goes on from there (docs/decisions/063). Free; the player is taken to it, and this story
 * stays as it is.
 */
export function BranchFromHere({ message }: { message: ChatMessage }) {
  const { state } = useStory();
  const navigate = useNavigate();
  const [branching, setBranching] = useState(false);
  const { storyId } = state;
  const { exchange } = message;
  if (!storyId || exchange === undefined) return null;
  async function branch() {
    setBranching(true);
    try {
      const response = await fetch(`/api/stories/${storyId}/branches`, {
        method: "POST",
        headers: { Accept: "application/json", "Content-Type": "application/json" },
        body: JSON.stringify({ exchange }),
      });
      const answer = (await response.json().catch(() => ({}))) as { url?: string; error?: string };
      if (!response.ok || !answer.url) throw new Error(answer.error ?? "The branch could not be made. Please try again.");
      toast.success(`A new branch goes on from turn ${String(exchange)}. The story you branched from is kept.`);
      await navigate(answer.url);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setBranching(false);
    }
  }
  return (
    <ControlButton
      label="Branch from here"
      sharedDescription="branch"
      icon={<ReplyIcon name="branch" />}
      onClick={() => void branch()}
      disabled={branching}
    />
  );
}
