import { describe, expect, it } from "vitest";
import { cannedReply, PREVIEW_PLACEHOLDER, welcomeMessage } from "./preview-chat.ts";

const empress = { slug: "empress-simulator", title: "Empress Simulator", promptOpening: "The emperor is dead." };
const campus = { slug: "mary-sue-campus", title: "Mary Sue Campus", promptOpening: "Welcome to Everbright Academy." };

describe("the preview chat", () => {
  it("opens with SPEC's welcome followed by the prompt's opening", () => {
    expect(welcomeMessage(empress)).toMatchObject({
      role: "assistant",
      paragraphs: ["Welcome to Empress Simulator! I am your AI Game Master.", "The emperor is dead."],
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

  it("answers other games with an acknowledgement echoing the action, plus the prompt", () => {
    const reply = cannedReply(campus, "I join the drama club", 2);
    expect(reply.stats).toBeUndefined();
    expect(reply.choices).toBeUndefined();
    expect(reply.paragraphs.join(" ")).toContain("I join the drama club");
    expect(reply.paragraphs.join(" ")).toContain("Welcome to Everbright Academy.");
  });
});
