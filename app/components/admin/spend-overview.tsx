import { Bar, CartesianGrid, ComposedChart, Legend, Line, Tooltip, XAxis, YAxis } from "recharts";
import { modelLabel, type Dashboard, type SpendLine, type SpendTotals } from "#app/lib/admin-dashboard.ts";
import type { SpendPart } from "#app/lib/model-calls.ts";
import { AXIS, CHART_MARGIN, CHART_SIZE, ChartCard, COLORS, csvHref, dayLabel, number, sum, TableCard, TOOLTIP } from "./overview-cards.tsx";

const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 4 });
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });

const NO_CALLS = "No model call in this period.";
/** How a line of calls other than turns is named after its game or model. */
const SPEND_PART_NAMES: Record<Exclude<SpendPart, "turns">, string> = { summaries: "summaries", advisories: "advisory ratings" };

/** Cached input as a share of all input; a dash where nothing was sent. */
function cachedShare({ inputTokens, cachedInputTokens }: Pick<SpendTotals, "inputTokens" | "cachedInputTokens">) {
  return inputTokens > 0 ? percent.format(cachedInputTokens / inputTokens) : "–";
}

/** What a line spent, and how many of its calls had no price (their cost unknown). */
function spent({ spend, unpricedCalls }: Pick<SpendLine, "spend" | "unpricedCalls">) {
  return unpricedCalls > 0 ? `${usd.format(spend)} (+ ${number.format(unpricedCalls)} no price)` : usd.format(spend);
}

const lineFigures = (row: SpendLine) => [
  number.format(row.calls),
  number.format(row.inputTokens),
  cachedShare(row),
  number.format(row.outputTokens),
  spent(row),
];

/**
 * What the Game Master costs against what players pay (issue 34): the model calls' spend per day
 * beside revenue, spend per paid turn (a paid turn spends a credit), the cached share of input and
 * the margin; then spend per game and per model, summaries and advisory ratings on lines of their own.
 */
export function SpendOverview({ dashboard }: { dashboard: Dashboard }) {
  const { days } = dashboard;
  const series = dashboard.spend.map((row, index) => {
    const revenue = (dashboard.revenue[index]?.revenueCents ?? 0) / 100;
    const paidTurns = dashboard.credits[index]?.spent ?? 0;
    return { ...row, revenue, margin: revenue - row.spend, perPaidTurn: paidTurns > 0 ? row.spend / paidTurns : null };
  });
  const spend = sum(dashboard.spend, (row) => row.spend);
  const revenue = sum(series, (row) => row.revenue);
  const paidTurns = sum(dashboard.credits, (row) => row.spent);
  const totals = {
    inputTokens: sum(dashboard.spend, (row) => row.inputTokens),
    cachedInputTokens: sum(dashboard.spend, (row) => row.cachedInputTokens),
  };
  const lineName = (name: string, row: SpendLine) => (row.part === "turns" ? name : `${name} — ${SPEND_PART_NAMES[row.part]}`);

  return (
    <div className="space-y-3">
      <p className="text-sm text-parchment-dim">
        <span className="font-semibold text-parchment">Model spend.</span>{" "}
        {`${usd.format(spend)} on ${number.format(sum(dashboard.spend, (row) => row.calls))} model calls; ${
          paidTurns > 0 ? `${usd.format(spend / paidTurns)} per paid turn` : "no paid turn"
        }; ${cachedShare(totals)} of input read from the provider's cache; margin ${usd.format(revenue - spend)}.`}
      </p>
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <ChartCard
          title="Model spend per day"
          dataset="spend"
          href={csvHref("spend", days)}
          header={["Day", "Calls", "Input tokens", "Cached", "Output tokens", "Spend", "Per paid turn", "Revenue", "Margin"]}
          rows={series.map((row) => [
            dayLabel(row.day),
            number.format(row.calls),
            number.format(row.inputTokens),
            cachedShare(row),
            number.format(row.outputTokens),
            usd.format(row.spend),
            row.perPaidTurn === null ? "–" : usd.format(row.perPaidTurn),
            usd.format(row.revenue),
            usd.format(row.margin),
          ])}
        >
          <ComposedChart responsive accessibilityLayer={false} data={series} style={CHART_SIZE} margin={CHART_MARGIN}>
            <CartesianGrid vertical={false} stroke={COLORS.line} />
            <XAxis dataKey="day" tickFormatter={dayLabel} {...AXIS} minTickGap={16} />
            <YAxis {...AXIS} width={56} tickFormatter={(dollars: number) => usd.format(dollars).replace(/\.00$/, "")} />
            <Tooltip {...TOOLTIP} formatter={(dollars) => usd.format(Number(dollars))} />
            <Legend wrapperStyle={{ fontSize: 12, color: COLORS.parchmentDim }} />
            <Bar isAnimationActive={false} dataKey="revenue" name="Revenue" fill={COLORS.gold} radius={[3, 3, 0, 0]} />
            <Bar isAnimationActive={false} dataKey="spend" name="Spend" fill={COLORS.plum} radius={[3, 3, 0, 0]} />
            <Line isAnimationActive={false} dataKey="margin" name="Margin" stroke={COLORS.parchment} strokeWidth={2} dot={false} />
          </ComposedChart>
        </ChartCard>
        <div className="grid gap-4">
          <TableCard
            title="Model spend per game"
            dataset="spend_games"
            href={csvHref("spend_games", days)}
            header={["Game", "Calls", "Input tokens", "Cached", "Output tokens", "Spend"]}
            rows={dashboard.spendGames.map((row) => [lineName(row.title ?? "Deleted game", row), ...lineFigures(row)])}
            numeric={[1, 2, 3, 4, 5]}
            empty={NO_CALLS}
          />
          <TableCard
            title="Model spend per model"
            dataset="spend_models"
            href={csvHref("spend_models", days)}
            header={["Model", "Calls", "Input tokens", "Cached", "Output tokens", "Spend"]}
            rows={dashboard.spendModels.map((row) => [lineName(modelLabel(row), row), ...lineFigures(row)])}
            numeric={[1, 2, 3, 4, 5]}
            empty={NO_CALLS}
          />
        </div>
      </div>
    </div>
  );
}
