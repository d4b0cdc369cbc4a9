import { describe, expect, it } from "vitest";
import { contentPreview } from "./content-preview.ts";

describe("contentPreview", () => {
  it("keeps short content whole", () => {
    expect(contentPreview("A short note.")).toBe("A short note.");
  });

  it("cuts at 100 characters and adds '...'", () => {
    const preview = contentPreview("word ".repeat(40));
    expect(preview).toBe(`${"word ".repeat(20).slice(0, 100)}...`);
    expect(preview.length).toBe(103);
  });

  it("shows the words, not the Markdown or HTML around them", () => {
    expect(contentPreview("## The Court\n\nThe **empress** reads [the decree](/guides/x).<br><em>Quietly.</em>")).toBe(
      "The Court The empress reads the decree. Quietly.",
    );
  });
});
