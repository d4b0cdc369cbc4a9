import { deleteModelPrice, listModelPrices, saveModelPrice } from "#app/domain/model-prices.server.ts";
import { apiRoute, endpoint } from "#app/http/api-route.server.ts";
import { modelPriceKeySchema, modelPriceSchema } from "#app/lib/model-calls.ts";

/**
 * The price table (issue 34). GET: every model's price. PUT `{ provider, model, inputPerMillion,
 * cachedInputPerMillion, cacheWritePerMillion, outputPerMillion, currency }`: set one. DELETE
 * `{ provider, model }`: remove one (its later calls show "no price"). Admins only.
 */
const modelPrices = apiRoute({
  GET: endpoint({ access: "admin", handler: async () => ({ prices: await listModelPrices() }) }),
  PUT: endpoint({ access: "admin", body: modelPriceSchema, handler: async ({ body }) => ({ price: await saveModelPrice(body) }) }),
  DELETE: endpoint({
    access: "admin",
    body: modelPriceKeySchema,
    handler: async ({ body }) => {
      await deleteModelPrice(body);
      return { deleted: true };
    },
  }),
});

export const loader = modelPrices;
export const action = modelPrices;
