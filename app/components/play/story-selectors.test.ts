import { describe, expect, it } from "vitest";
import { controlsFor, priceOf, shownStoryState } from "./story-selectors.ts";
import { initialStoryState } from "./story-state.ts";
import { exchange, GRACE, storyView } from "./story-test-data.ts";

/** What the screen derives from its state: prices (turnCost), the controls a message offers, the State panel. */

describe("prices and controls", () => {
  it("prices with turnCost: the opening free, Continue and later turns one credit", () => {
    const opening = initialStoryState(storyView(1));
    expect([priceOf(opening, "retry"), priceOf(opening, "edit"), priceOf(opening, "continue"), priceOf(opening, "send")]).toEqual([0, 0, 1, 1]);
    expect(priceOf(initialStoryState(null), "send")).toBe(0);
  });

  it("offers Edit under the latest message, versions and the paid controls under the latest reply, Send again under a lost one", () => {
    const state = initialStoryState(storyView(2, { messages: [...exchange(1), ...exchange(2, "Two.", { version: 2, versions: 3 })] }));
    const [oldMove, oldReply, move, reply] = state.messages;
    expect([controlsFor(state, oldMove!), controlsFor(state, oldReply!)]).toEqual([null, null]);
    expect(controlsFor(state, move!)).toEqual({ kind: "edit" });
    expect(controlsFor(state, reply!)).toEqual({ kind: "reply", version: 2, versions: 3 });
    const lost = initialStoryState(storyView(2, { messages: [...exchange(1), ...exchange(2, "", { status: "interrupted" })] }));
    expect(controlsFor(lost, lost.messages.at(-1)!)).toEqual({ kind: "lost", message: "Move 2." });
  });

  it("the State panel shows the game's starting values before the story has a state", () => {
    expect(shownStoryState(initialStoryState(null), [GRACE])).toEqual({ stats: [GRACE], values: { Grace: 75 }, previous: { Grace: 75 } });
    expect(shownStoryState(initialStoryState(null), [])).toBeNull();
  });
});
