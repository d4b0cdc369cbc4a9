import { describe, expect, it } from "vitest";
import { PREVIEW_PLACEHOLDER, sceneMessage, welcomeMessage } from "./preview-chat.ts";

const empress = { slug: "empress-simulator", title: "Empress Simulator", description: "Rule as regent Empress Dowager." };

describe("the preview chat", () => {
  it("opens with SPEC's welcome followed by the game's description", () => {
    expect(welcomeMessage(empress)).toEqual({
      id: 0,
      role: "assistant",
      text: "Welcome to Empress Simulator! I am your AI Game Master.\n\nRule as regent Empress Dowager.",
    });
  });

  it("has SPEC's placeholder", () => {
    expect(PREVIEW_PLACEHOLDER).toBe("What do you want to do? Type your action or choice...");
  });

  it("shows an opening scene's prose, its stats and its numbered choices apart", () => {
    const scene = {
      reply: "The hall falls silent.\n\n**What do you do?**\n\n1. Summon the **Chancellor**.\n2. Wait.",
      state: { Grace: 75, "Private Treasury": 2800, Allies: ["Madam Lin", "Han Qiu"], Title: "Regent" },
    };
    expect(sceneMessage(scene, 2)).toEqual({
      id: 2,
      role: "assistant",
      text: "The hall falls silent.\n\n**What do you do?**",
      stats: [
        { label: "Grace", value: "75" },
        { label: "Private Treasury", value: "2,800" },
        { label: "Allies", value: "Madam Lin, Han Qiu" },
        { label: "Title", value: "Regent" },
      ],
      choices: ["Summon the Chancellor.", "Wait."],
    });
  });

  it("shows a scene without stats or choices as prose alone", () => {
    expect(sceneMessage({ reply: "A quiet morning." }, 2)).toEqual({ id: 2, role: "assistant", text: "A quiet morning." });
  });
});
