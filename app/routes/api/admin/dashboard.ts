import { z } from "zod";
import { loadDashboard } from "#app/domain/admin-dashboard.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { dashboardPeriod } from "#app/lib/admin-dashboard.ts";

/** GET: the admin overview's figures for the last `?days=` 7, 30 or 90 days. Admins only. */
const dashboard = apiRoute({
  GET: endpoint({
    access: "admin",
    query: z.object({ days: z.string().optional() }),
    handler: async ({ query }) => ({ dashboard: await loadDashboard(dashboardPeriod(query.days)) }),
  }),
});

export const loader = dashboard;
export const action = dashboard;
