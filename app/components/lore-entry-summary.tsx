import { Badge } from "#app/components/ui/badge.tsx";
import { LORE_TEXTS, type GameLoreEntryView, type PublicLoreEntry } from "#app/lib/lorebook.ts";

/**
 * A lore entry as a list shows it, in the admin's game editor and the player's Lorebook panel: its
 * title (a heading at the list's level), then what the entry has of Always on, Disabled, Shown to
 * players and its priority (a game's entry shown to a player has none of them), its keys and the
 * start of its content.
 */
export function LoreEntrySummary({
  entry,
  heading: Heading,
}: {
  entry: PublicLoreEntry & Partial<Pick<GameLoreEntryView, "alwaysOn" | "enabled" | "priority" | "shownToPlayers">>;
  heading: "h3" | "h4";
}) {
  return (
    <div className="min-w-0 flex-1 space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <Heading className="font-sans text-base font-semibold">{entry.title}</Heading>
        {entry.alwaysOn ? <Badge variant="outline">Always on</Badge> : null}
        {entry.enabled === false ? <Badge variant="outline">Disabled</Badge> : null}
        {entry.shownToPlayers ? <Badge variant="outline">{LORE_TEXTS.shownToPlayers}</Badge> : null}
        {entry.priority === undefined ? null : <span className="text-xs text-parchment-dim">Priority {entry.priority}</span>}
      </div>
      <p className="font-mono text-xs break-words text-parchment-dim">{entry.keys || LORE_TEXTS.noKeys}</p>
      <p className="line-clamp-3 text-sm whitespace-pre-line">{entry.content}</p>
    </div>
  );
}
