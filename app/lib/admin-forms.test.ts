import { describe, expect, it } from "vitest";
import { contentInputSchema, fieldErrorsOf, gameInputSchema, guideInputSchema, sectionsInputSchema } from "./admin-forms.ts";

const game = { title: "T", slug: "t", description: "D", prompt: "P" };

describe("gameInputSchema", () => {
  it("parses the sort order like parseInt, 0 when it is not a number", () => {
    const sortOrder = (value: unknown) => gameInputSchema.parse({ ...game, sortOrder: value }).sortOrder;
    expect(sortOrder("12abc")).toBe(12);
    expect(sortOrder("3.7")).toBe(3);
    expect(sortOrder("-5")).toBe(-5);
    expect(sortOrder(8)).toBe(8);
    expect(sortOrder("")).toBe(0);
    expect(sortOrder("ten")).toBe(0);
    expect(sortOrder(undefined)).toBe(0);
  });

  it("forces the slug and trims the text; empty optional fields become null", () => {
    expect(gameInputSchema.parse({ ...game, title: "  Spaced  ", slug: "My Game_2", tagline: "   ", players: "" })).toMatchObject({
      title: "Spaced",
      slug: "my-game-2",
      tagline: null,
      players: null,
    });
  });

  it("refuses a slug with no letter or digit, and an out-of-range sort order", () => {
    const result = gameInputSchema.safeParse({ ...game, slug: "!!!", sortOrder: "99999999" });
    expect(result.success).toBe(false);
    expect(fieldErrorsOf(result.error!)).toEqual({
      slug: "The slug needs at least one letter or digit.",
      sortOrder: "Sort order must be at most 1,000,000.",
    });
  });
});

describe("contentInputSchema", () => {
  it("defaults to an introduction at order 0, published", () => {
    expect(contentInputSchema.parse({ gameSlug: "g", title: "T", content: "C" })).toEqual({
      gameSlug: "g",
      contentType: "introduction",
      title: "T",
      content: "C",
      sectionOrder: 0,
      isPublished: true,
    });
  });
});

describe("sectionsInputSchema", () => {
  it("keeps a blank order as null, for the section's placeholder order", () => {
    const parsed = sectionsInputSchema.parse({
      gameSlug: "g",
      sections: [{ contentType: "world_setting", title: "", content: "", sectionOrder: "" }],
    });
    expect(parsed.sections[0]).toMatchObject({ sectionOrder: null, isPublished: true });
  });

  it("refuses a type outside the six, with the field's path", () => {
    const result = sectionsInputSchema.safeParse({ gameSlug: "g", sections: [{ contentType: "pro_tips", title: "", content: "" }] });
    expect(fieldErrorsOf(result.error!)).toEqual({ "sections.0.contentType": "Unknown section type." });
  });

  it("refuses the same section twice", () => {
    const twice = { contentType: "world_setting", title: "", content: "" };
    const result = sectionsInputSchema.safeParse({ gameSlug: "g", sections: [twice, twice] });
    expect(fieldErrorsOf(result.error!)).toEqual({ "sections.1.contentType": "Each section may appear once." });
  });
});

describe("guideInputSchema", () => {
  it("reads the read time as a whole number of minutes, 10 when not a number, at least 1", () => {
    const guide = { title: "T", slug: "t", description: "D", content: "C" };
    expect(guideInputSchema.parse({ ...guide, estimatedReadTime: "15 minutes" }).estimatedReadTime).toBe(15);
    expect(guideInputSchema.parse({ ...guide, estimatedReadTime: "" }).estimatedReadTime).toBe(10);
    expect(guideInputSchema.safeParse({ ...guide, estimatedReadTime: "0" }).success).toBe(false);
  });
});
