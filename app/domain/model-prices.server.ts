import { and, asc, eq } from "drizzle-orm";
import { db } from "../db/database.server.ts";
import { modelPrices } from "../db/schema.ts";
import type { ModelPrice } from "../lib/model-calls.ts";
import { NotFoundError } from "./errors.server.ts";

/**
 * The price table (issue 34): what each model costs per million tokens, as admins set it. A call
 * is priced when it is recorded (app/db/functions/model_call_cost.sql), so a new price applies to
 * the calls after it; calls already recorded keep the cost they had.
 */

const priceColumns = {
  provider: modelPrices.provider,
  model: modelPrices.model,
  inputPerMillion: modelPrices.inputPerMillion,
  cachedInputPerMillion: modelPrices.cachedInputPerMillion,
  cacheWritePerMillion: modelPrices.cacheWritePerMillion,
  outputPerMillion: modelPrices.outputPerMillion,
  currency: modelPrices.currency,
};

export function listModelPrices(): Promise<ModelPrice[]> {
  return db().select(priceColumns).from(modelPrices).orderBy(asc(modelPrices.provider), asc(modelPrices.model));
}

/** Sets a model's price, adding it to the table or changing the one it had. */
export async function saveModelPrice(price: ModelPrice): Promise<ModelPrice> {
  const { provider, model, ...prices } = price;
  const [saved] = await db()
    .insert(modelPrices)
    .values(price)
    .onConflictDoUpdate({ target: [modelPrices.provider, modelPrices.model], set: { ...prices, updatedAt: new Date() } })
    .returning(priceColumns);
  if (!saved) throw new Error(`The price of ${model} (${provider}) could not be saved.`);
  return saved;
}

export async function deleteModelPrice({ provider, model }: Pick<ModelPrice, "provider" | "model">): Promise<void> {
  const deleted = await db()
    .delete(modelPrices)
    .where(and(eq(modelPrices.provider, provider), eq(modelPrices.model, model)))
    .returning({ model: modelPrices.model });
  if (deleted.length === 0) throw new NotFoundError(`No price is set for ${model} (${provider}).`);
}
