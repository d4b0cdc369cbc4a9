import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";

/** How close to the end (px) counts as being back at the newest text: following resumes there. */
const RESUME_THRESHOLD_PX = 96;
/** Room kept above a new reply when the view stops at its start: its edge shows. */
const REPLY_MARGIN_PX = 12;
/** Of a reply being continued, this much of what was there before stays in view above the new words. */
const CONTINUE_CONTEXT_PX = 80;

function distanceFromEnd(element: HTMLElement) {
  return element.scrollHeight - element.scrollTop - element.clientHeight;
}

/** Higher than where it was last left, and not merely clamped to the end of shrunken content. */
function movedUp(element: HTMLElement, settledTop: number) {
  return element.scrollTop < settledTop - 1 && distanceFromEnd(element) > 1;
}

/** Where a reply's new words begin, as a scroll position of the story: its start, or its end so far when continued. */
function newWordsAt(element: HTMLElement, continuing: boolean): number | null {
  const reply = element.querySelector<HTMLElement>("[data-writing]");
  if (!reply) return null;
  const top = reply.getBoundingClientRect().top - element.getBoundingClientRect().top + element.scrollTop;
  return Math.max(0, continuing ? top + reply.offsetHeight - CONTINUE_CONTEXT_PX : top - REPLY_MARGIN_PX);
}

/**
 * Keeps a scrolling story at its newest text while the player reads there, and leaves the view
 * where the player put it once they scroll up to reread; scrolling back to the end,
 * `jumpToLatest`, or a new `resumeKey` (the player sent something) follows again. `content` is
 * what changes as text arrives. Older turns put above (`holdPlace` first, then a new `firstKey`)
 * leave the view where it was.
 *
 * A reply being written (`writingKey`, the element marked `data-writing`; `continuing` when it
 * extends text already there) is followed until its new words reach the top of the view: a reply
 * taller than the screen is then read from its start, not shown by its last lines (its status
 * line, its choices), and the view stays there as the rest arrives, with Latest to go to the end.
 *
 * Only the player moves the view up: content that grows leaves scrollTop alone, and content that
 * shrinks only clamps a view that was at the end. A player's scroll can land between two pieces
 * of a reply before its scroll event is dispatched, so the view is compared with where it was
 * last left, not only read from scroll events, or the next piece would pull the player back down.
 */
export function useFollowLatest({
  content,
  resumeKey,
  firstKey,
  writingKey,
  continuing,
}: {
  content: unknown;
  resumeKey: unknown;
  firstKey: unknown;
  writingKey: string | null;
  continuing: boolean;
}) {
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
  /** The furthest the view follows: where the newest reply's new words begin (null: to the end). */
  const stopAt = useRef<number | null>(null);

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
    const end = element.scrollHeight - element.clientHeight;
    if (stopAt.current !== null && end > stopAt.current) {
      // The new words reached the top: the player reads on from there.
      element.scrollTop = Math.max(element.scrollTop, stopAt.current);
      setFollowing(false);
    } else {
      element.scrollTop = element.scrollHeight;
    }
    settledTop.current = element.scrollTop;
  }, [setFollowing]);

  // The state decides; the ref lets what runs between renders (a resize, a scroll) read it at once.
  useLayoutEffect(() => {
    followingRef.current = following;
  }, [following]);
  // A reply begins (here, or in another tab) while the view follows: it follows up to the reply's new words.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (!element || writingKey === null || !followingRef.current) return;
    stopAt.current = newWordsAt(element, continuing);
  }, [writingKey, continuing]);
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
    const ours = Math.abs(element.scrollTop - settledTop.current) < 1;
    settledTop.current = element.scrollTop;
    if (byPlayer) setFollowing(false);
    else if (!ours && distanceFromEnd(element) < RESUME_THRESHOLD_PX) {
      // The player went to the end: from there the view follows it.
      stopAt.current = null;
      setFollowing(true);
    }
  }, [setFollowing]);

  const jumpToLatest = useCallback(() => {
    stopAt.current = null;
    setFollowing(true);
    const element = scroller.current;
    element?.scrollTo({ top: element.scrollHeight, behavior: "smooth" });
  }, [setFollowing]);

  return { scroller, following, onScroll, jumpToLatest, holdPlace };
}

export type FollowLatest = ReturnType<typeof useFollowLatest>;
