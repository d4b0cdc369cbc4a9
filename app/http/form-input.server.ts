import type { z } from "zod";
import { InvalidInputError } from "../domain/errors.server.ts";
import { describeIssue } from "./validation.ts";

/**
 * A page form's fields, parsed by its schema: the parsed values, or an InvalidInputError naming the
 * first field that is wrong with the schema's own sentence (a page action answers it with formRefusal).
 */
export function parseFormFields<Schema extends z.ZodType>(form: FormData, schema: Schema): z.infer<Schema> {
  const fields = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const parsed = schema.safeParse(fields, { error: describeIssue });
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const field = issue?.path[0];
  throw new InvalidInputError(issue?.message ?? "The form is not valid.", typeof field === "string" ? field : undefined);
}
