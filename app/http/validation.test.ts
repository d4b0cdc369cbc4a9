import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssue } from "./validation.ts";

const schema = z.object({
  message: z.string().max(5),
  count: z.number().int(),
  kind: z.enum(["a", "b"]),
  items: z.array(z.string()).max(1),
  named: z.string("Say your name."),
});

function messages(input: unknown) {
  const result = schema.safeParse(input, { error: describeIssue });
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe("describeIssue", () => {
  it("names the field and says what is wrong in words", () => {
    expect(messages({ message: "too long", count: "1", kind: "c", items: ["x", "y"], named: "n" })).toEqual([
      '"message" is too long: at most 5 characters.',
      '"count" must be a number.',
      '"kind" must be one of: "a", "b".',
      '"items" has too many items: at most 1.',
    ]);
  });

  it("says a missing field is required, and a body that is not an object is one", () => {
    expect(messages({ message: "ok", count: 1, kind: "a", items: [] })).toEqual(["Say your name."]);
    expect(messages({ message: "ok", kind: "a", items: [], named: "n" })).toEqual(['"count" is required.']);
    expect(messages("text")).toEqual(["The request body must be a JSON object."]);
  });

  it("keeps the sentences a schema carries", () => {
    expect(messages({ message: "ok", count: 1, kind: "a", items: [], named: 5 })).toEqual(["Say your name."]);
  });
});
