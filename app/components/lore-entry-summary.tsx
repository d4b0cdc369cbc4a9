import { Badge } from "#app/components/ui/badge.tsx";
import { LORE_TEXTS, type LoreEntryView } from "#app/lib/lorebook.ts";

/**
 * A lore entry as a list shows it, in the admin's game editor and the player's Lorebook panel: its
 * title (a heading at the list's level), Always on, Disabled, its priority, its keys and the start
 * of its content.
 */
export function LoreEntrySummary({ entry, heading: Heading }: { entry: LoreEntryView; heading: "h3" | "h4" }) {
  return (
    <div className="min-w-0 flex-1 space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <Heading className="font-sans text-base font-semibold">{entry.title}</Heading>
        {entry.alwaysOn ? <Badge variant="outline">Always on</Badge> : null}
        {entry.enabled ? null : <Badge variant="outline">Disabled</Badge>}
        <span className="text-xs text-parchment-dim">Priority {entry.priority}</span>
      </div>
      <p className="font-mono text-xs break-words text-parchment-dim">{entry.keys || LORE_TEXTS.noKeys}</p>
      <p className="line-clamp-3 text-sm whitespace-pre-line">{entry.content}</p>
    </div>
  );
}
