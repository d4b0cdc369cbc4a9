import { Coins, MessageSquareText, UsersRound, Wallet } from "lucide-react";
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { DASHBOARD_PERIODS, type Dashboard, type DashboardDataset } from "#app/lib/admin-dashboard.ts";
import { formatUsd } from "#app/lib/payments.ts";
import { adminSearch } from "./admin-view.ts";
import { LoadFailed } from "./form-controls.tsx";
import {
  AXIS,
  CHART_MARGIN,
  CHART_SIZE,
  ChartCard,
  COLORS,
  csvHref,
  dayLabel,
  Figure,
  number,
  sum,
  TableCard,
  TOOLTIP,
} from "./overview-cards.tsx";
import { RatingsOverview } from "./ratings-overview.tsx";
import { SegmentedLinks } from "./segmented-links.tsx";
import { SpendOverview } from "./spend-overview.tsx";

/** The admin overview: how the site is doing over the last 7, 30 or 90 days. */
export function Overview({ dashboard }: { dashboard: Dashboard | null | undefined }) {
  if (!dashboard) return <LoadFailed message="Failed to load the overview. Please try again." />;
  const { days } = dashboard;
  const newPlayers = sum(dashboard.players, (row) => row.newPlayers);
  const turns = sum(dashboard.turns, (row) => row.turns);
  const bought = sum(dashboard.credits, (row) => row.bought);
  const spent = sum(dashboard.credits, (row) => row.spent);
  const revenue = sum(dashboard.revenue, (row) => row.revenueCents);
  const payments = sum(dashboard.revenue, (row) => row.payments);
  const csv = (dataset: DashboardDataset) => csvHref(dataset, days);

  return (
    <section aria-labelledby="overview-heading" className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="overview-heading" className="text-3xl">
            Overview
          </h2>
          <p className="text-sm text-parchment-dim">
            The last {days} days, {dayLabel(dashboard.from)} – {dayLabel(dashboard.to)} (UTC days).
          </p>
        </div>
        <SegmentedLinks
          label="Period"
          options={DASHBOARD_PERIODS.map((period) => ({ value: period, label: `${period} days` }))}
          current={days}
          search={(period) => adminSearch({ tab: "overview", days: period })}
        />
      </div>

      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure icon={<UsersRound />} label="Players" value={number.format(dashboard.totalPlayers)} detail={`${number.format(newPlayers)} new`} />
        <Figure
          icon={<MessageSquareText />}
          label="Turns played"
          value={number.format(turns)}
          detail={`${number.format(Math.round(turns / days))} a day`}
        />
        <Figure
          icon={<Coins />}
          label="Credits bought / spent"
          value={`${number.format(bought)} / ${number.format(spent)}`}
          detail={`${number.format(sum(dashboard.credits, (row) => row.granted))} granted`}
        />
        <Figure icon={<Wallet />} label="Revenue" value={formatUsd(revenue)} detail={`${number.format(payments)} payments`} />
      </dl>

      <div className="grid items-start gap-4 lg:grid-cols-2">
        <ChartCard
          title="New players per day"
          dataset="players"
          href={csv("players")}
          header={["Day", "New players"]}
          rows={dashboard.players.map((row) => [dayLabel(row.day), number.format(row.newPlayers)])}
        >
          <BarChart responsive accessibilityLayer={false} data={dashboard.players} style={CHART_SIZE} margin={CHART_MARGIN}>
            <CartesianGrid vertical={false} stroke={COLORS.line} />
            <XAxis dataKey="day" tickFormatter={dayLabel} {...AXIS} minTickGap={16} />
            <YAxis allowDecimals={false} {...AXIS} width={40} />
            <Tooltip {...TOOLTIP} />
            <Bar isAnimationActive={false} dataKey="newPlayers" name="New players" fill={COLORS.gold} radius={[3, 3, 0, 0]} />
          </BarChart>
        </ChartCard>
        <ChartCard
          title="Turns per day"
          dataset="turns"
          href={csv("turns")}
          header={["Day", "Turns"]}
          rows={dashboard.turns.map((row) => [dayLabel(row.day), number.format(row.turns)])}
        >
          <AreaChart responsive accessibilityLayer={false} data={dashboard.turns} style={CHART_SIZE} margin={CHART_MARGIN}>
            <CartesianGrid vertical={false} stroke={COLORS.line} />
            <XAxis dataKey="day" tickFormatter={dayLabel} {...AXIS} minTickGap={16} />
            <YAxis allowDecimals={false} {...AXIS} width={48} />
            <Tooltip {...TOOLTIP} />
            <Area
              isAnimationActive={false}
              dataKey="turns"
              name="Turns"
              stroke={COLORS.gold}
              fill={COLORS.gold}
              fillOpacity={0.2}
              strokeWidth={2}
            />
          </AreaChart>
        </ChartCard>
        <ChartCard
          title="Credits bought and spent per day"
          dataset="credits"
          href={csv("credits")}
          header={["Day", "Bought", "Spent", "Granted"]}
          rows={dashboard.credits.map((row) => [
            dayLabel(row.day),
            number.format(row.bought),
            number.format(row.spent),
            number.format(row.granted),
          ])}
        >
          <BarChart responsive accessibilityLayer={false} data={dashboard.credits} style={CHART_SIZE} margin={CHART_MARGIN}>
            <CartesianGrid vertical={false} stroke={COLORS.line} />
            <XAxis dataKey="day" tickFormatter={dayLabel} {...AXIS} minTickGap={16} />
            <YAxis allowDecimals={false} {...AXIS} width={48} />
            <Tooltip {...TOOLTIP} />
            <Legend wrapperStyle={{ fontSize: 12, color: COLORS.parchmentDim }} />
            <Bar isAnimationActive={false} dataKey="bought" name="Bought" fill={COLORS.gold} radius={[3, 3, 0, 0]} />
            <Bar isAnimationActive={false} dataKey="spent" name="Spent" fill={COLORS.plum} radius={[3, 3, 0, 0]} />
          </BarChart>
        </ChartCard>
        <ChartCard
          title="Revenue per day"
          dataset="revenue"
          href={csv("revenue")}
          header={["Day", "Payments", "Revenue"]}
          rows={dashboard.revenue.map((row) => [dayLabel(row.day), number.format(row.payments), formatUsd(row.revenueCents)])}
        >
          <BarChart responsive accessibilityLayer={false} data={dashboard.revenue} style={CHART_SIZE} margin={CHART_MARGIN}>
            <CartesianGrid vertical={false} stroke={COLORS.line} />
            <XAxis dataKey="day" tickFormatter={dayLabel} {...AXIS} minTickGap={16} />
            <YAxis {...AXIS} width={56} tickFormatter={(cents: number) => formatUsd(cents).replace(/\.00$/, "")} />
            <Tooltip {...TOOLTIP} formatter={(cents) => formatUsd(Number(cents))} />
            <Bar isAnimationActive={false} dataKey="revenueCents" name="Revenue" fill={COLORS.gold} radius={[3, 3, 0, 0]} />
          </BarChart>
        </ChartCard>
      </div>

      <div className="grid items-start gap-4 lg:grid-cols-2">
        <TableCard
          title="Revenue per package"
          href={csv("packages")}
          dataset="packages"
          header={["Package", "Payments", "Credits", "Revenue"]}
          rows={dashboard.packages.map((row) => [
            row.packageId,
            number.format(row.payments),
            number.format(row.credits),
            formatUsd(row.revenueCents),
          ])}
          numeric={[1, 2, 3]}
          empty="No completed payments in this period."
        />
        <TableCard
          title="Most played games"
          href={csv("games")}
          dataset="games"
          header={["Game", "Turns", "Players"]}
          rows={dashboard.games.map((row) => [row.title, number.format(row.turns), number.format(row.players)])}
          numeric={[1, 2]}
          empty="No turns played in this period."
        />
      </div>
      <SpendOverview dashboard={dashboard} />
      <RatingsOverview dashboard={dashboard} />
      <TableCard
        title="Failed and pending payments"
        href={csv("payments")}
        dataset="payments"
        header={["Started", "Status", "Player", "Package", "Amount"]}
        rows={dashboard.openPayments.map((row) => [
          new Date(row.createdAt).toISOString().slice(0, 16).replace("T", " "),
          row.status === "failed" ? "Failed" : "Pending",
          row.email,
          row.packageId,
          formatUsd(row.amountCents),
        ])}
        numeric={[4]}
        empty="No payment failed or waits in this period."
      />
    </section>
  );
}
