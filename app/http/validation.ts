import type { z } from "zod";

/**
 * zod's own messages ("Invalid input: expected string, received number") say neither which field
 * nor what to do. Schemas that carry their own sentences keep them; every other issue is said the
 * way a person would say it, naming the field.
 */
export function describeIssue(issue: z.core.$ZodRawIssue): string {
  const field = issue.path && issue.path.length > 0 ? `"${issue.path.join(".")}"` : "The request body";
  switch (issue.code) {
    case "invalid_type":
      return issue.input === undefined ? `${field} is required.` : `${field} must be ${typeInWords(issue.expected)}.`;
    case "too_big":
      return issue.origin === "string"
        ? `${field} is too long: at most ${String(issue.maximum)} characters.`
        : issue.origin === "array"
          ? `${field} has too many items: at most ${String(issue.maximum)}.`
          : `${field} must be at most ${String(issue.maximum)}.`;
    case "too_small":
      return issue.origin === "string"
        ? Number(issue.minimum) <= 1
          ? `${field} cannot be empty.`
          : `${field} is too short: at least ${String(issue.minimum)} characters.`
        : issue.origin === "array"
          ? `${field} needs at least ${String(issue.minimum)} items.`
          : `${field} must be at least ${String(issue.minimum)}.`;
    case "invalid_value":
      return `${field} must be one of: ${issue.values.map((value) => JSON.stringify(value)).join(", ")}.`;
    case "unrecognized_keys":
      return `${field} has fields this address does not take: ${issue.keys.join(", ")}.`;
    case "invalid_format":
      return `${field} is not a valid ${issue.format}.`;
    default:
      return `${field} is not valid.`;
  }
}

function typeInWords(expected: string) {
  const names: Record<string, string> = {
    string: "text",
    number: "a number",
    int: "a whole number",
    boolean: "true or false",
    object: "a JSON object",
    array: "a list",
  };
  return names[expected] ?? expected;
}
