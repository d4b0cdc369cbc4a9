import type { LucideIcon } from "lucide-react";
import { Badge } from "./ui/badge.tsx";

/** A teaser for something not built yet (games, guide sections), clearly marked as such. */
export function ComingSoonCard({
  icon: Icon,
  title,
  description,
  headingLevel = 3,
}: {
  icon: LucideIcon;
  title: string;
  description: string;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="flex flex-col rounded-[var(--radius-card)] border border-dashed border-ink-line bg-ink-raised/50 p-6">
      <div className="flex items-start justify-between gap-3">
        <span aria-hidden className="grid size-11 place-items-center rounded-full border border-ink-line text-parchment-dim">
          <Icon className="size-5" strokeWidth={1.75} />
        </span>
        <Badge variant="outline">Coming Soon</Badge>
      </div>
      <Heading className="mt-4 text-xl text-parchment">{title}</Heading>
      <p className="mt-2 text-sm text-parchment-dim">{description}</p>
    </div>
  );
}
