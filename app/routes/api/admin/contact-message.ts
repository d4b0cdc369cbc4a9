import { setMessageHandled } from "#app/domain/contact-admin.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { handledInputSchema } from "#app/lib/admin-inbox.ts";

/** PATCH `{ handled }`: mark a contact message handled or waiting again. Admins only. */
const contactMessage = apiRoute({
  PATCH: endpoint({
    access: "admin",
    body: handledInputSchema,
    handler: async ({ params, body, user }) => ({ message: await setMessageHandled(recordId(params.id, "message"), body.handled, user.id) }),
  }),
});

export const loader = contactMessage;
export const action = contactMessage;
