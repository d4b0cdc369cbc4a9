import { describe, expect, it } from "vitest";
import { cannedReply, PREVIEW_PLACEHOLDER, welcomeMessage } from "./preview-chat.ts";

const empress = { slug: "empress-simulator", title: "Empress Simulator", description: "Rule as regent Empress Dowager." };
const campus = { slug: "mary-sue-campus", title: "Mary Sue Campus", description: "A playful school comedy." };

describe("the preview chat", () => {
  it("opens with SPEC's welcome followed by the game's description", () => {
    expect(welcomeMessage(empress)).toEqual({
      id: 0,
      role: "assistant",
      paragraphs: ["Welcome to Empress Simulator! I am your AI Game Master.", "Rule as regent Empress Dowager."],
    });
  });

  it("has SPEC's placeholder", () => {
    expect(PREVIEW_PLACEHOLDER).toBe("What do you want to do? Type your action or choice...");
  });

  it("answers the empress with SPEC's sample stats and six numbered choices", () => {
    const reply = cannedReply(empress, "I summon the Chancellor", 2);
    expect(reply.stats).toEqual([
      { label: "Grace", value: "75" },
      { label: "Imperial Stability", value: "68" },
      { label: "Trust of Young Emperor", value: "85" },
      { label: "Private treasury", value: "2,800 silver taels" },
    ]);
    expect(reply.choices).toHaveLength(6);
    expect(reply.paragraphs[0]).toContain("I summon the Chancellor");
  });

  it("answers other games with an acknowledgement echoing the action", () => {
    const reply = cannedReply(campus, "I join the drama club", 2);
    expect(reply.stats).toBeUndefined();
    expect(reply.choices).toBeUndefined();
    expect(reply.paragraphs).toEqual([
      "You decide: “I join the drama club”",
      "The Game Master takes note. In the full game of Mary Sue Campus, your action would ripple through the story: characters react, consequences unfold, and new choices open up.",
    ]);
  });
});
