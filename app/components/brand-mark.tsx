import { Crown } from "lucide-react";
import { Link } from "react-router";
import { cn } from "#app/lib/utils.ts";

/** The crown and the site's name; `compact` leaves only the crown on narrow phones, where the header is full. */
export function BrandMark({ name, compact = false, className }: { name: string; compact?: boolean; className?: string }) {
  return (
    <Link to="/" className={cn("group inline-flex items-center gap-2.5 rounded-md", className)}>
      <span className="grid size-9 place-items-center rounded-full border border-gold/60 bg-ink-raised text-gold transition-colors group-hover:border-gold">
        <Crown className="size-5" strokeWidth={1.75} aria-hidden />
      </span>
      <span className={cn("font-display text-2xl font-bold tracking-wide whitespace-nowrap text-parchment", compact && "max-[420px]:sr-only")}>
        {name}
      </span>
    </Link>
  );
}
