import { z } from "zod";
import { loadDashboard } from "#app/domain/admin-dashboard.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { DASHBOARD_DATASET_NAMES, DASHBOARD_DATASETS, dashboardPeriod, datasetRows, toCsv } from "#app/lib/admin-dashboard.ts";

/** GET: one of the overview's datasets as a CSV download (`?dataset=turns&days=30`). Admins only. */
const dashboardExport = apiRoute({
  GET: endpoint({
    access: "admin",
    query: z.object({
      dataset: z.enum(DASHBOARD_DATASET_NAMES, { error: `Choose a dataset: ${DASHBOARD_DATASET_NAMES.join(", ")}.` }),
      days: z.string().optional(),
    }),
    handler: async ({ query }) => {
      const dashboard = await loadDashboard(dashboardPeriod(query.days));
      const csv = toCsv(DASHBOARD_DATASETS[query.dataset].columns, datasetRows(dashboard, query.dataset));
      return new Response(csv, {
        headers: {
          "Content-Type": "text/csv; charset=utf-8",
          "Content-Disposition": `attachment; filename="${query.dataset}-${dashboard.from}-to-${dashboard.to}.csv"`,
        },
      });
    },
  }),
});

export const loader = dashboardExport;
export const action = dashboardExport;
