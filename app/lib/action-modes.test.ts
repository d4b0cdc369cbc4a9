import { describe, expect, it } from "vitest";
import { actionInMode, isActionMode, secondPerson } from "./action-modes.ts";

describe("secondPerson (Do)", () => {
  it.each([
    ["I draw my sword and greet my sister", "You draw your sword and greet your sister."],
    ["I'm tired, so I sit down.", "You're tired, so you sit down."],
    ["I’ve seen enough; I’ll leave.", "You’ve seen enough; you’ll leave."],
    ["I'd rather hide", "You'd rather hide."],
    ["I am the heir", "You are the heir."],
    ["I was born here and I am staying", "You were born here and you are staying."],
    ["I tell her to follow me", "You tell her to follow you."],
    ["I hurt myself on the blade", "You hurt yourself on the blade."],
    ["The ring is mine!", "The ring is yours!"],
    ["My sword glows", "Your sword glows."],
    ["My hands shake. I drop the cup.", "Your hands shake. You drop the cup."],
    ["Carefully, I open the door", "Carefully, you open the door."],
    ["i open my bag", "You open your bag."],
    ["I SHOUT MY NAME", "You SHOUT YOUR NAME."],
  ])("%s → %s", (typed, sent) => {
    expect(secondPerson(typed)).toBe(sent);
  });

  it("leaves quoted speech alone, straight or curly, and the narration around it", () => {
    expect(secondPerson('I whisper "I love my brother" to myself')).toBe('You whisper "I love my brother" to yourself.');
    expect(secondPerson("I shout “Leave me be!” and run")).toBe("You shout “Leave me be!” and run.");
    expect(secondPerson('"Stop!" I cry.')).toBe('"Stop!" you cry.');
    // An unclosed quote runs to the end of the message.
    expect(secondPerson('I say "my name is Lin')).toBe('You say "my name is Lin');
  });

  it("does not touch words that only contain the pronouns", () => {
    expect(secondPerson("I mime a mystery to Imogen in Miami")).toBe("You mime a mystery to Imogen in Miami.");
    expect(secondPerson("I read the Iliad, my favourite")).toBe("You read the Iliad, your favourite.");
  });

  it("gives an action without I its subject", () => {
    expect(secondPerson("Draw my sword")).toBe("You draw your sword.");
    expect(secondPerson("look around")).toBe("You look around.");
    expect(secondPerson('"Who goes there?"')).toBe('"Who goes there?"');
  });

  it("capitalises I's replacement only where a sentence starts", () => {
    expect(secondPerson("Then I run! I hide.\nI wait")).toBe("Then you run! You hide.\nYou wait.");
    expect(secondPerson("Before dawn: I leave")).toBe("Before dawn: You leave.");
  });

  it("keeps the closing punctuation the player wrote", () => {
    expect(secondPerson("I knock?")).toBe("You knock?");
    expect(secondPerson("I wait…")).toBe("You wait…");
    expect(secondPerson("I wait (quietly)")).toBe("You wait (quietly)");
  });
});

describe("actionInMode", () => {
  it("Say puts the words in the player's mouth, capitalised and closed", () => {
    expect(actionInMode("hello there", "say")).toBe('You say, "Hello there."');
    expect(actionInMode("Who are you?", "say")).toBe('You say, "Who are you?"');
    expect(actionInMode('"Run!"', "say")).toBe('You say, "Run!"');
    expect(actionInMode("“Quiet”", "say")).toBe('You say, "Quiet."');
  });

  it("Story sends the narration as written, and Do rewrites it", () => {
    expect(actionInMode("  The storm breaks over my keep. ", "story")).toBe("The storm breaks over my keep.");
    expect(actionInMode("I run", "do")).toBe("You run.");
  });

  it("sends nothing for an empty message in any mode", () => {
    for (const mode of ["do", "say", "story"] as const) expect(actionInMode("   ", mode)).toBe("");
  });

  it("knows its modes", () => {
    expect(isActionMode("say")).toBe(true);
    expect(isActionMode("check")).toBe(false);
    expect(isActionMode(null)).toBe(false);
  });
});
