import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** How close to the end (px) counts as being back at the newest text: following resumes there. */
const RESUME_THRESHOLD_PX = 96;

function distanceFromEnd(element: HTMLElement) {
  return element.scrollHeight - element.scrollTop - element.clientHeight;
}

/** Higher than where it was last left, and not merely clamped to the end of shrunken content. */
function movedUp(element: HTMLElement, settledTop: number) {
  return element.scrollTop < settledTop - 1 && distanceFromEnd(element) > 1;
}

/**
 * Keeps a scrolling story at its newest text while the player reads there, and leaves the view
 * where the player put it once they scroll up to reread; scrolling back to the end,
 * `jumpToLatest`, or a new `resumeKey` (the player sent something) follows again. `content` is
 * what changes as text arrives. Older turns put above (`holdPlace` first, then a new `firstKey`)
 * leave the view where it was.
 *
 * Only the player moves the view up: content that grows leaves scrollTop alone, and content that
 * shrinks only clamps a view that was at the end. A player's scroll can land between two pieces
 * of a reply before its scroll event is dispatched, so the view is compared with where it was
 * last left, not only read from scroll events, or the next piece would pull the player back down.
 */
export function useFollowLatest({ content, resumeKey, firstKey }: { content: unknown; resumeKey: unknown; firstKey: unknown }) {
  const scroller = useRef<HTMLDivElement>(null);
  const followingRef = useRef(true);
  const [following, setFollowingState] = useState(true);
  // What the player just sent is followed from its first words.
  const [resumedFor, setResumedFor] = useState(resumeKey);
  if (resumedFor !== resumeKey) {
    setResumedFor(resumeKey);
    setFollowingState(true);
  }
  /** Where the view was left by the last scroll, ours or the player's. */
  const settledTop = useRef(0);

  const setFollowing = useCallback((value: boolean) => {
    followingRef.current = value;
    setFollowingState(value);
  }, []);

  const keepUp = useCallback(() => {
    const element = scroller.current;
    if (!element || !followingRef.current) return;
    if (movedUp(element, settledTop.current)) {
      setFollowing(false);
      return;
    }
    element.scrollTop = element.scrollHeight;
    settledTop.current = element.scrollTop;
  }, [setFollowing]);

  // The state decides; the ref lets what runs between renders (a resize, a scroll) read it at once.
  useLayoutEffect(() => {
    followingRef.current = following;
  }, [following]);
  useLayoutEffect(keepUp, [content, keepUp]);

  /** Distance from the end of the story before older turns were put above: kept, so the view does not jump. */
  const keptFromEnd = useRef<number | null>(null);
  const holdPlace = useCallback(() => {
    const element = scroller.current;
    if (element) keptFromEnd.current = element.scrollHeight - element.scrollTop;
  }, []);
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || keptFromEnd.current === null) return;
    element.scrollTop = element.scrollHeight - keptFromEnd.current;
    keptFromEnd.current = null;
  }, [firstKey]);

  // Content also grows without a state change (fonts arriving, Markdown laying out).
  useEffect(() => {
    const element = scroller.current;
    const inner = element?.firstElementChild;
    if (!element || !inner) return;
    const observer = new ResizeObserver(keepUp);
    observer.observe(inner);
    return () => observer.disconnect();
  }, [keepUp]);

  const onScroll = useCallback(() => {
    const element = scroller.current;
    if (!element) return;
    const byPlayer = movedUp(element, settledTop.current);
    settledTop.current = element.scrollTop;
    if (byPlayer) setFollowing(false);
    else if (distanceFromEnd(element) < RESUME_THRESHOLD_PX) setFollowing(true);
  }, [setFollowing]);

  const jumpToLatest = useCallback(() => {
    setFollowing(true);
    const element = scroller.current;
    element?.scrollTo({ top: element.scrollHeight, behavior: "smooth" });
  }, [setFollowing]);

  return { scroller, following, onScroll, jumpToLatest, holdPlace };
}

export type FollowLatest = ReturnType<typeof useFollowLatest>;
