import { useLiveCredits } from "./live-credits.ts";
import { useRootData } from "./use-root-data.ts";

/**
 * The signed-in player's credit balance as the page should show it (null when signed out).
 * Every balance on screen reads it, so live updates reach them all at once: the value the
 * server last pushed over /api/credits/events, or the root loader's until the first push.
 */
export function useViewerCredits(): number | null {
  const viewer = useRootData().viewer;
  const live = useLiveCredits();
  if (!viewer) return null;
  return live?.userId === viewer.id ? live.credits : viewer.credits;
}
