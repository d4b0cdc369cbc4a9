import { adminEndpoint } from "#app/domain/admin-api.server.ts";
import { listContactMessages } from "#app/domain/contact-admin.server.ts";
import { requestContext } from "#app/request-context.ts";
import type { Route } from "./+types/contact-messages";

/** GET: the contact form's messages, newest first. Admins only. */
function contactMessages({ request, context }: Route.LoaderArgs | Route.ActionArgs) {
  return adminEndpoint(request, context.get(requestContext).logger, {
    GET: async () => Response.json(await listContactMessages()),
  });
}

export const loader = contactMessages;
export const action = contactMessages;
