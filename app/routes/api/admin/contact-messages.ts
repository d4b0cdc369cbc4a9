import { listContactMessages } from "#app/domain/contact-admin.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";

/** GET: the contact form's messages, newest first. Admins only. */
const contactMessages = apiRoute({
  GET: endpoint({ access: "admin", handler: () => listContactMessages() }),
});

export const loader = contactMessages;
export const action = contactMessages;
