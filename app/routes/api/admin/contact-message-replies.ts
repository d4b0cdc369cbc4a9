import { replyToMessage } from "#app/domain/contact-admin.server.ts";
import { apiRoute, endpoint, recordId } from "#app/http/api-route.server.ts";
import { replyInputSchema } from "#app/lib/admin-inbox.ts";

/** POST `{ body }`: answer a contact message by email; the reply is kept with the message. Admins only. */
const replies = apiRoute({
  POST: endpoint({
    access: "admin",
    body: replyInputSchema,
    handler: async ({ params, body, user }) =>
      Response.json({ reply: await replyToMessage(recordId(params.id, "message"), body.body, user) }, { status: 201 }),
  }),
});

export const loader = replies;
export const action = replies;
