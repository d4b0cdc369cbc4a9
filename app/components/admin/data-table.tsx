import { cn } from "#app/lib/utils.ts";

/**
 * A compact table of figures: the first cell of a row is its header; numbers sit right; cells do
 * not wrap. A table taller than `maxHeight` or wider than its card scrolls inside a focusable
 * region, so a keyboard can scroll it too.
 */
export function DataTable({
  caption,
  header,
  rows,
  numeric,
  maxHeight,
}: {
  caption: string;
  header: string[];
  rows: string[][];
  /** The columns (by index) that hold numbers. */
  numeric: readonly number[];
  maxHeight?: "max-h-72" | "max-h-80";
}) {
  const align = (index: number) => (numeric.includes(index) ? "text-right" : "text-left");
  return (
    <div tabIndex={0} role="region" aria-label={`${caption}, table`} className={cn("overflow-auto rounded-lg", maxHeight)}>
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-ink-raised text-parchment-dim">
          <tr>
            {header.map((cell, index) => (
              <th key={cell} scope="col" className={cn("border-b border-ink-line px-2 py-2 font-medium whitespace-nowrap", align(index))}>
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="tabular-nums">
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex} className="border-b border-ink-line/60 last:border-0">
              {row.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row" className="px-2 py-1.5 text-left font-normal whitespace-nowrap text-parchment">
                    {cell}
                  </th>
                ) : (
                  <td key={index} className={cn("px-2 py-1.5 whitespace-nowrap text-parchment", align(index))}>
                    {cell}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
