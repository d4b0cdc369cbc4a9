import { Download } from "lucide-react";
import type { ReactNode } from "react";
import { DASHBOARD_DATASETS, type DashboardDataset } from "#app/lib/admin-dashboard.ts";
import { DataTable } from "./data-table.tsx";

/** The overview's building blocks: the chart style, figures, and cards that hold a chart or a table with its CSV. */

export const COLORS = { gold: "#d8ae5e", parchmentDim: "#b9ad9c", line: "#2e2540", plum: "#a35a8c", raised: "#1c1529", parchment: "#f4ede1" };
export const number = new Intl.NumberFormat("en-US");
const shortDay = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
export const dayLabel = (day: string) => shortDay.format(new Date(`${day}T00:00:00Z`));
export const sum = <Row,>(rows: Row[], value: (row: Row) => number) => rows.reduce((total, row) => total + value(row), 0);

export const AXIS = { stroke: COLORS.parchmentDim, fontSize: 12, tickLine: false, axisLine: { stroke: COLORS.line } } as const;
export const TOOLTIP = {
  contentStyle: { background: COLORS.raised, border: `1px solid ${COLORS.line}`, borderRadius: 12, color: COLORS.parchment },
  labelStyle: { color: COLORS.parchment },
  cursor: { fill: "rgba(216, 174, 94, 0.08)" },
  labelFormatter: (label: unknown) => dayLabel(String(label)),
} as const;

/** Where a dataset of the overview downloads as CSV, for the period shown. */
export const csvHref = (dataset: DashboardDataset, days: number) => `/api/admin/dashboard/export?dataset=${dataset}&days=${days}`;

export const CHART_SIZE = { width: "100%", height: 240 };
export const CHART_MARGIN = { top: 8, right: 8, bottom: 0, left: 0 };

export function Figure({ icon, label, value, detail }: { icon: ReactNode; label: string; value: string; detail: string }) {
  return (
    <div className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4 sm:p-5">
      <dt className="flex items-center gap-2 text-sm text-parchment-dim [&_svg]:size-4 [&_svg]:text-gold">
        {icon}
        {label}
      </dt>
      <dd className="mt-2 font-display text-2xl font-bold text-parchment tabular-nums sm:text-3xl">{value}</dd>
      <dd className="text-sm text-parchment-dim">{detail}</dd>
    </div>
  );
}

function CsvLink({ href, dataset }: { href: string; dataset: DashboardDataset }) {
  return (
    <a
      href={href}
      download
      className="inline-flex items-center gap-1.5 rounded-full text-sm text-gold hover:underline"
      aria-label={`Download ${DASHBOARD_DATASETS[dataset].label.toLowerCase()} as CSV`}
    >
      <Download className="size-4" aria-hidden />
      CSV
    </a>
  );
}

/** A chart with its numbers behind it: a table to open for screen readers and exact figures, and a CSV. */
export function ChartCard({
  title,
  dataset,
  href,
  header,
  rows,
  children,
}: {
  title: string;
  dataset: DashboardDataset;
  href: string;
  header: string[];
  rows: string[][];
  children: ReactNode;
}) {
  return (
    <figure className="min-w-0 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4 sm:p-5">
      <div className="mb-3 flex items-center justify-between gap-3">
        <figcaption className="font-sans text-base font-semibold text-parchment">{title}</figcaption>
        <CsvLink href={href} dataset={dataset} />
      </div>
      <div aria-hidden className="h-60" data-chart={dataset}>
        {children}
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer rounded-sm text-parchment-dim hover:text-parchment">Show table</summary>
        <div className="mt-2">
          <DataTable caption={title} header={header} rows={rows} numeric={header.map((_, index) => index).slice(1)} maxHeight="max-h-72" />
        </div>
      </details>
    </figure>
  );
}

export function TableCard({
  title,
  dataset,
  href,
  header,
  rows,
  numeric,
  empty,
}: {
  title: string;
  dataset: DashboardDataset;
  href: string;
  header: string[];
  rows: string[][];
  numeric: readonly number[];
  empty: string;
}) {
  return (
    <section aria-label={title} className="min-w-0 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4 sm:p-5">
      <div className="mb-2 flex items-center justify-between gap-3">
        <h3 className="font-sans text-base font-semibold text-parchment">{title}</h3>
        <CsvLink href={href} dataset={dataset} />
      </div>
      {rows.length > 0 ? (
        <DataTable caption={title} header={header} rows={rows} numeric={numeric} />
      ) : (
        <p className="py-4 text-sm text-parchment-dim">{empty}</p>
      )}
    </section>
  );
}
