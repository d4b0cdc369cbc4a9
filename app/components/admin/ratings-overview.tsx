import { CartesianGrid, Line, LineChart, Tooltip, XAxis, YAxis } from "recharts";
import { modelLabel, type Dashboard, type RatingCounts } from "#app/lib/admin-dashboard.ts";
import { likedShare } from "#app/lib/reply-ratings.ts";
import { AXIS, CHART_MARGIN, CHART_SIZE, ChartCard, COLORS, csvHref, dayLabel, number, sum, TableCard, TOOLTIP } from "./overview-cards.tsx";

const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });

/** A liked share as the tables show it: a percentage, or a dash where nothing was rated. */
function liked({ good, bad }: RatingCounts) {
  const share = likedShare(good, bad);
  return share === null ? "–" : percent.format(share);
}

const NOTHING_RATED = "No reply was rated in this period.";

/**
 * How well the Game Master's replies are liked (issue 33): of the replies players rated Good reply
 * or Bad reply, the share that was good, per day, per game and per model. A rating counts on the
 * day it was last set; a reply taken back (undone, edited away) no longer counts.
 */
export function RatingsOverview({ dashboard }: { dashboard: Dashboard }) {
  const { days } = dashboard;
  const good = sum(dashboard.ratings, (row) => row.good);
  const bad = sum(dashboard.ratings, (row) => row.bad);
  // Days without a rating are gaps in the line, not 0 %.
  const series = dashboard.ratings.map((row) => ({ day: row.day, liked: likedShare(row.good, row.bad) }));
  const counts = (row: RatingCounts) => [number.format(row.good), number.format(row.bad), liked(row)];

  return (
    <div className="space-y-3">
      <p className="text-sm text-parchment-dim">
        <span className="font-semibold text-parchment">Reply ratings.</span>{" "}
        {good + bad === 0
          ? `${NOTHING_RATED} Players rate a reply with Good reply or Bad reply under it.`
          : `Players liked ${liked({ good, bad })} of the ${number.format(good + bad)} replies they rated (${number.format(good)} good, ${number.format(bad)} bad).`}
      </p>
      <div className="grid items-start gap-4 lg:grid-cols-2">
        <ChartCard
          title="Liked replies per day"
          dataset="ratings"
          href={csvHref("ratings", days)}
          header={["Day", "Good", "Bad", "Liked"]}
          rows={dashboard.ratings.map((row) => [dayLabel(row.day), ...counts(row)])}
        >
          <LineChart responsive accessibilityLayer={false} data={series} style={CHART_SIZE} margin={CHART_MARGIN}>
            <CartesianGrid vertical={false} stroke={COLORS.line} />
            <XAxis dataKey="day" tickFormatter={dayLabel} {...AXIS} minTickGap={16} />
            <YAxis domain={[0, 1]} ticks={[0, 0.25, 0.5, 0.75, 1]} tickFormatter={(share: number) => percent.format(share)} {...AXIS} width={48} />
            <Tooltip {...TOOLTIP} formatter={(share) => (typeof share === "number" ? percent.format(share) : "–")} />
            <Line isAnimationActive={false} dataKey="liked" name="Liked" stroke={COLORS.gold} strokeWidth={2} dot={{ r: 2, fill: COLORS.gold }} />
          </LineChart>
        </ChartCard>
        <div className="grid gap-4">
          <TableCard
            title="Liked replies per game"
            dataset="rated_games"
            href={csvHref("rated_games", days)}
            header={["Game", "Good", "Bad", "Liked"]}
            rows={dashboard.ratedGames.map((row) => [row.title, ...counts(row)])}
            numeric={[1, 2, 3]}
            empty={NOTHING_RATED}
          />
          <TableCard
            title="Liked replies per model"
            dataset="rated_models"
            href={csvHref("rated_models", days)}
            header={["Model", "Good", "Bad", "Liked"]}
            rows={dashboard.ratedModels.map((row) => [modelLabel(row), ...counts(row)])}
            numeric={[1, 2, 3]}
            empty={NOTHING_RATED}
          />
        </div>
      </div>
    </div>
  );
}
