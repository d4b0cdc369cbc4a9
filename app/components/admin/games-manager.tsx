import { ExternalLink, Gamepad2, Plus } from "lucide-react";
import { useEffect, useState } from "react";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { Game } from "#app/db/schema.ts";
import { ADMIN_TEXTS, gameDeleted } from "#app/lib/admin-texts.ts";
import type { GameModelChoices } from "#app/lib/game-models.ts";
import { GameForm } from "./game-form.tsx";
import { GameIconGlyph } from "./icons.tsx";
import { AdminItemList, DeleteButton, EditButton } from "./item-list.tsx";

const DIFFICULTY_BADGE = { Beginner: "beginner", Intermediate: "intermediate", Advanced: "advanced" } as const;

/** SPEC's Games Management: the list, or the form in its place while adding or editing. */
export function GamesManager({ games, models }: { games: Game[] | null; models: GameModelChoices | null | undefined }) {
  const [editing, setEditing] = useState<Game | "new" | null>(null);
  // Keyboard users land back on the button that opened the form.
  const [returnFocusTo, setReturnFocusTo] = useState<string | null>(null);
  useEffect(() => {
    if (!editing && returnFocusTo) document.getElementById(returnFocusTo)?.focus();
  }, [editing, returnFocusTo]);

  if (editing) {
    const close = () => {
      setReturnFocusTo(editing === "new" ? "add-new-game" : `edit-game-${editing.id}`);
      setEditing(null);
    };
    return <GameForm game={editing === "new" ? undefined : editing} models={models} onClose={close} />;
  }

  return (
    <section aria-labelledby="games-heading" className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 id="games-heading" className="text-3xl">
            Games
          </h2>
          <p className="text-sm text-parchment-dim">
            {games ? `${games.length} active ${games.length === 1 ? "game" : "games"}, in the order players see them.` : null}
          </p>
        </div>
        <Button id="add-new-game" onClick={() => setEditing("new")}>
          <Plus aria-hidden />
          {ADMIN_TEXTS.addNewGame}
        </Button>
      </div>
      <AdminItemList
        items={games}
        loadFailedMessage={ADMIN_TEXTS.gamesLoadFailed}
        empty={{ icon: <Gamepad2 />, title: ADMIN_TEXTS.noGames }}
        className="space-y-3"
        renderItem={(game) => <GameRow key={game.id} game={game} onEdit={() => setEditing(game)} />}
      />
    </section>
  );
}

function GameRow({ game, onEdit }: { game: Game; onEdit: () => void }) {
  return (
    <li className="grid grid-cols-[auto_1fr] items-start gap-x-4 gap-y-3 rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4 sm:p-5 lg:grid-cols-[auto_1fr_auto]">
      <div className="flex size-10 shrink-0 items-center justify-center rounded-full border border-gold/60 text-gold sm:size-11">
        <GameIconGlyph name={game.icon} className="size-5" />
      </div>
      <div className="min-w-0 flex-1 space-y-1.5">
        <div className="flex flex-wrap items-center gap-2">
          <h3 className="font-display text-2xl leading-tight">{game.title}</h3>
          <Badge variant={DIFFICULTY_BADGE[game.difficulty]}>{game.difficulty}</Badge>
          <Badge variant="outline">{game.category}</Badge>
          <span className="text-xs font-semibold text-parchment-dim" title="Sort order">
            #{game.sortOrder}
          </span>
        </div>
        {game.tagline ? <p className="text-sm text-gold">{game.tagline}</p> : null}
        <p className="line-clamp-2 text-sm text-parchment-dim">{game.description}</p>
        <p className="font-mono text-xs text-parchment-dim/80">/game/{game.slug}</p>
      </div>
      <div className="col-span-2 flex flex-wrap gap-2 border-t border-ink-line pt-3 lg:col-span-1 lg:border-0 lg:pt-0">
        <EditButton id={`edit-game-${game.id}`} variant="secondary" title={game.title} onEdit={onEdit} />
        <Button asChild variant="ghost" size="sm">
          <a href={`/game/${game.slug}`} target="_blank" rel="noopener noreferrer" aria-label={`View ${game.title} (opens in a new tab)`}>
            <ExternalLink aria-hidden />
            View
          </a>
        </Button>
        <DeleteButton
          kind="game"
          title={game.title}
          url={`/api/admin/games/${game.id}`}
          deletedMessage={gameDeleted(game.title)}
          failedMessage={ADMIN_TEXTS.gameDeleteFailed}
        />
      </div>
    </li>
  );
}
