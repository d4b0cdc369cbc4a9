import type { z } from "zod";

/** Small pieces every JSON endpoint needs, so each answers bad input the same way. */

export class BadRequestError extends Error {
  override name = "BadRequestError";
}

/** The request's JSON body parsed by `schema`; a body that is not JSON or does not fit throws BadRequestError. */
export async function readJsonBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new BadRequestError("The request body must be JSON.");
  }
  const result = schema.safeParse(body);
  if (!result.success) {
    // Field schemas carry their own sentences; a body of the wrong shape gets a general one.
    const issue = result.error.issues[0];
    throw new BadRequestError(issue && issue.path.length > 0 ? issue.message : "The request body must be a JSON object.");
  }
  return result.data;
}

/** The answer to GET on an endpoint that only takes POST. */
export function methodNotAllowed(allow = "POST") {
  return Response.json({ error: `Use ${allow} for this endpoint.` }, { status: 405, headers: { Allow: allow } });
}
