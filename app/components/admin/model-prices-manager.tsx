import { Cpu, Pencil, Trash2 } from "lucide-react";
import { useState, type SubmitEvent } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { MODEL_PROVIDERS, type ModelPrice, type ModelProvider } from "#app/lib/model-calls.ts";
import { controlProps, EmptyState, Field, LoadFailed, SelectField } from "./form-controls.tsx";
import { useAdminRequest } from "./use-admin-request.ts";

/** The form's fields as typed; an optional price left empty costs what input costs. */
interface PriceForm {
  provider: ModelProvider;
  model: string;
  inputPerMillion: string;
  cachedInputPerMillion: string;
  cacheWritePerMillion: string;
  outputPerMillion: string;
  currency: string;
}

const EMPTY_FORM: PriceForm = {
  provider: "openai-compatible",
  model: "",
  inputPerMillion: "",
  cachedInputPerMillion: "",
  cacheWritePerMillion: "",
  outputPerMillion: "",
  currency: "USD",
};

const asForm = (price: ModelPrice): PriceForm => ({
  ...price,
  provider: price.provider as ModelProvider,
  inputPerMillion: String(price.inputPerMillion),
  cachedInputPerMillion: price.cachedInputPerMillion === null ? "" : String(price.cachedInputPerMillion),
  cacheWritePerMillion: price.cacheWritePerMillion === null ? "" : String(price.cacheWritePerMillion),
  outputPerMillion: String(price.outputPerMillion),
});

/** A typed price as the API reads it: a number, or what was typed so the server can say what is wrong with it. */
const amount = (typed: string) => (typed.trim() === "" || Number.isNaN(Number(typed)) ? typed : Number(typed));
const optionalAmount = (typed: string) => (typed.trim() === "" ? null : amount(typed));

const PRICE_FIELDS = [
  ["inputPerMillion", "Input"],
  ["cachedInputPerMillion", "Cached input"],
  ["cacheWritePerMillion", "Cache write"],
  ["outputPerMillion", "Output"],
] as const;

const perMillion = (price: number | null, currency: string) => (price === null ? "as input" : `${price} ${currency}`);

/**
 * The Models tab (issue 34): the price table every model call is priced by when it is recorded.
 * A model with no price here has its calls shown as "no price".
 */
export function ModelPricesManager({ prices }: { prices: ModelPrice[] | null | undefined }) {
  const { send, pending } = useAdminRequest();
  const [form, setForm] = useState<PriceForm>(EMPTY_FORM);
  const [error, setError] = useState<string | undefined>();
  if (!prices) return <LoadFailed message="Failed to load the price table. Please try again." />;

  const set = (field: keyof PriceForm) => (value: string) => setForm((current) => ({ ...current, [field]: value }));

  async function save(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const result = await send("PUT", "/api/admin/model-prices", {
      provider: form.provider,
      model: form.model,
      inputPerMillion: amount(form.inputPerMillion),
      cachedInputPerMillion: optionalAmount(form.cachedInputPerMillion),
      cacheWritePerMillion: optionalAmount(form.cacheWritePerMillion),
      outputPerMillion: amount(form.outputPerMillion),
      currency: form.currency,
    });
    if (result.ok) {
      setForm(EMPTY_FORM);
      setError(undefined);
    } else setError(result.error ?? "The price could not be saved. Please try again.");
  }

  async function remove(price: ModelPrice) {
    const result = await send("DELETE", "/api/admin/model-prices", { provider: price.provider, model: price.model });
    if (!result.ok) setError(result.error ?? "The price could not be removed. Please try again.");
  }

  return (
    <section aria-labelledby="models-heading" className="space-y-6">
      <div>
        <h2 id="models-heading" className="text-3xl">
          Models
        </h2>
        <p className="text-sm text-parchment-dim">
          What each model costs per million tokens. Every model call is priced when it is recorded; a model without a price shows &ldquo;no
          price&rdquo;.
        </p>
      </div>
      {prices.length === 0 ? (
        <EmptyState icon={<Cpu />} title="No model has a price yet." />
      ) : (
        <ul className="divide-y divide-ink-line rounded-[var(--radius-card)] border border-ink-line bg-ink-raised">
          {prices.map((price) => (
            <li key={`${price.provider}/${price.model}`} className="flex flex-wrap items-center justify-between gap-3 p-4">
              <div className="min-w-0">
                <p className="font-semibold break-all text-parchment">{price.model}</p>
                <p className="text-sm text-parchment-dim">
                  {price.provider} · input {perMillion(price.inputPerMillion, price.currency)} · cached{" "}
                  {perMillion(price.cachedInputPerMillion, price.currency)} · cache write {perMillion(price.cacheWritePerMillion, price.currency)}{" "}
                  · output {perMillion(price.outputPerMillion, price.currency)}
                </p>
              </div>
              <div className="flex gap-2">
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => setForm(asForm(price))}
                  aria-label={`Edit the price of ${price.model}`}
                >
                  <Pencil aria-hidden />
                  Edit
                </Button>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  disabled={pending}
                  onClick={() => void remove(price)}
                  aria-label={`Remove the price of ${price.model}`}
                >
                  <Trash2 aria-hidden />
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(event) => void save(event)}
        className="space-y-4 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4 sm:p-5"
      >
        <h3 className="text-xl">Set a model&rsquo;s price</h3>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            id="price-provider"
            label="Provider"
            value={form.provider}
            options={MODEL_PROVIDERS.map((provider) => ({ value: provider, label: provider }))}
            onChange={set("provider")}
            required
          />
          <Field id="price-model" label="Model id" required>
            <Input {...controlProps("price-model")} value={form.model} onChange={(event) => set("model")(event.target.value)} />
          </Field>
          {PRICE_FIELDS.map(([field, label]) => (
            <Field
              key={field}
              id={`price-${field}`}
              label={`${label} per million tokens`}
              required={field === "inputPerMillion" || field === "outputPerMillion"}
            >
              <Input
                {...controlProps(`price-${field}`)}
                inputMode="decimal"
                value={form[field]}
                onChange={(event) => set(field)(event.target.value)}
              />
            </Field>
          ))}
          <Field id="price-currency" label="Currency" required>
            <Input {...controlProps("price-currency")} value={form.currency} onChange={(event) => set("currency")(event.target.value)} />
          </Field>
        </div>
        {error ? (
          <p role="alert" className="text-sm font-medium text-danger">
            {error}
          </p>
        ) : null}
        <Button type="submit" disabled={pending}>
          {pending ? "Saving..." : "Save price"}
        </Button>
      </form>
    </section>
  );
}
