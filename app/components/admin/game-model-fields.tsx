import type { Game } from "#app/db/schema.ts";
import { contextTokensSchema, estimateTurnCost, type GameModelChoices } from "#app/lib/game-models.ts";
import { NumberField, SelectField } from "./form-controls.tsx";

/** The Model select's value for "the site's model" (a select's option cannot have an empty value). */
export const SITE_MODEL_CHOICE = "(site model)";

const tokens = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

function money(amount: number, currency: string) {
  return new Intl.NumberFormat("en-US", { style: "currency", currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(amount);
}

/**
 * A game's model and context budget (docs/decisions/060), with what an average turn would cost at
 * that choice: from the chosen model's price and the game's recent turns. `model` is "" for the
 * site's, `contextTokens` the budget as typed ("" for the site's).
 */
export function GameModelFields({
  id,
  game,
  choices,
  model,
  contextTokens,
  errors,
  onModelChange,
  onContextTokensChange,
}: {
  id: (field: "model" | "contextTokens") => string;
  game: Game | undefined;
  choices: GameModelChoices | null | undefined;
  model: string;
  contextTokens: string;
  errors: Partial<Record<string, string>>;
  onModelChange: (model: string) => void;
  onContextTokensChange: (contextTokens: string) => void;
}) {
  if (!choices) {
    return (
      <p className="text-sm text-parchment-dim md:col-span-2">
        {choices === null ? "The models this game can use could not be read. Reload the page to choose one." : null}
      </p>
    );
  }
  const priced = choices.prices.map((price) => price.model);
  // The game's model stays on the list after its price was removed.
  const models = [...new Set([...priced, ...(game?.model ? [game.model] : [])])].filter((each) => each !== choices.siteModel);
  const options = [
    { value: SITE_MODEL_CHOICE, label: `Site default (${choices.siteModel})` },
    ...models.map((each) => ({ value: each, label: each })),
  ];
  const chosenModel = model || choices.siteModel;
  const parsedBudget = contextTokensSchema.safeParse(contextTokens);
  const budgetTokens = (parsedBudget.success ? parsedBudget.data : null) ?? choices.siteContextTokens;
  const calls = game ? choices.recentCalls[game.slug] : undefined;
  const estimate = estimateTurnCost({
    samples: calls?.turns ?? [],
    summaries: calls?.summaries ?? [],
    playedAtTokens: game?.contextTokens ?? choices.siteContextTokens,
    budgetTokens,
    price: choices.prices.find((price) => price.model === chosenModel),
  });

  let sentence: string;
  if (!parsedBudget.success) sentence = "Enter a valid context budget to see what a turn would cost.";
  else if (!choices.prices.some((price) => price.model === chosenModel)) {
    sentence = `${chosenModel} has no price in the Models tab, so a turn's cost cannot be estimated.`;
  } else if (!estimate) {
    sentence = "This game has no recorded turns yet, so a turn's cost cannot be estimated.";
  } else {
    sentence = `Estimated cost of an average turn at ${tokens.format(budgetTokens)} tokens: ${money(estimate.cost, estimate.currency)} (about ${tokens.format(estimate.inputTokens)} input and ${tokens.format(estimate.outputTokens)} output tokens, from the last ${estimate.turns} ${estimate.turns === 1 ? "turn" : "turns"}${estimate.summaries ? ` and their share of ${estimate.summaries} story ${estimate.summaries === 1 ? "summary" : "summaries"}` : ""}).`;
  }

  return (
    <div className="grid gap-5 sm:grid-cols-2 md:col-span-2">
      <SelectField
        id={id("model")}
        label="Model"
        value={model || SITE_MODEL_CHOICE}
        options={options}
        onChange={(value) => onModelChange(value === SITE_MODEL_CHOICE ? "" : value)}
        error={errors.model}
      />
      <NumberField
        id={id("contextTokens")}
        label="Context budget (tokens)"
        value={contextTokens}
        placeholder={String(choices.siteContextTokens)}
        onChange={onContextTokensChange}
        error={errors.contextTokens}
        hint={`Empty: the site's ${tokens.format(choices.siteContextTokens)}. More context remembers more of a story, and costs more a turn.`}
      />
      <p className="text-sm text-parchment sm:col-span-2" aria-live="polite">
        {sentence}
      </p>
    </div>
  );
}
