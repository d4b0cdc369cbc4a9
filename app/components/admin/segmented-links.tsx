import { Link } from "react-router";
import { cn } from "#app/lib/utils.ts";

/**
 * A row of pill links that change what a panel shows (a period, a filter) through the address, so
 * the server reads it and a reload keeps it; the current one is gold.
 */
export function SegmentedLinks<Value extends string | number>({
  label,
  options,
  current,
  search,
}: {
  label: string;
  options: readonly { value: Value; label: string }[];
  current: Value;
  search: (value: Value) => string;
}) {
  return (
    <nav aria-label={label} className="flex rounded-full border border-ink-line bg-ink-raised p-1">
      {options.map((option) => (
        <Link
          key={option.value}
          to={{ search: search(option.value) }}
          replace
          preventScrollReset
          aria-current={option.value === current ? "page" : undefined}
          className={cn(
            "rounded-full px-4 py-1.5 text-sm font-medium text-parchment-dim hover:text-parchment",
            option.value === current && "bg-gold text-ink hover:text-ink",
          )}
        >
          {option.label}
        </Link>
      ))}
    </nav>
  );
}
