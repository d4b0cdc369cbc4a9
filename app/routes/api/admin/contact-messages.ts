import { z } from "zod";
import { listContactMessages } from "#app/domain/contact-admin.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { INBOX_FILTERS } from "#app/lib/admin-inbox.ts";

/** GET: the contact form's messages with their replies, newest first (`?filter=unhandled|handled`). Admins only. */
const contactMessages = apiRoute({
  GET: endpoint({
    access: "admin",
    query: z.object({ filter: z.enum(INBOX_FILTERS, { error: `Filter by ${INBOX_FILTERS.join(", ")}.` }).default("all") }),
    handler: ({ query }) => listContactMessages({ filter: query.filter }),
  }),
});

export const loader = contactMessages;
export const action = contactMessages;
