import { ExternalLink, Gamepad2, Pencil, Plus, Trash2 } from "lucide-react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import type { Game } from "#app/db/schema.ts";
import { ADMIN_TEXTS, gameDeleted } from "#app/lib/admin-texts.ts";
import { ConfirmDelete } from "./confirm-delete.tsx";
import { EmptyState, LoadFailed } from "./form-controls.tsx";
import { GameForm } from "./game-form.tsx";
import { GameIconGlyph } from "./icons.tsx";
import { useAdminRequest } from "./use-admin-request.ts";

const DIFFICULTY_BADGE = { Beginner: "beginner", Intermediate: "intermediate", Advanced: "advanced" } as const;

/** SPEC's Games Management: the list, or the form in its place while adding or editing. */
export function GamesManager({ games }: { games: Game[] | null }) {
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
    return <GameForm game={editing === "new" ? undefined : editing} onClose={close} />;
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
      {games === null ? (
        <LoadFailed message={ADMIN_TEXTS.gamesLoadFailed} />
      ) : games.length === 0 ? (
        <EmptyState icon={<Gamepad2 />} title={ADMIN_TEXTS.noGames} />
      ) : (
        <ul className="space-y-3">
          {games.map((game) => (
            <GameRow key={game.id} game={game} onEdit={() => setEditing(game)} />
          ))}
        </ul>
      )}
    </section>
  );
}

function GameRow({ game, onEdit }: { game: Game; onEdit: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const { send } = useAdminRequest();

  async function remove() {
    const result = await send("DELETE", `/api/admin/games/${game.id}`);
    if (result.ok) {
      setConfirming(false);
      toast.success(gameDeleted(game.title));
    } else {
      toast.error(ADMIN_TEXTS.gameDeleteFailed, { description: result.error });
    }
  }

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
        <Button id={`edit-game-${game.id}`} variant="secondary" size="sm" onClick={onEdit} aria-label={`Edit ${game.title}`}>
          <Pencil aria-hidden />
          Edit
        </Button>
        <Button asChild variant="ghost" size="sm">
          <a href={`/game/${game.slug}`} target="_blank" rel="noopener noreferrer" aria-label={`View ${game.title} (opens in a new tab)`}>
            <ExternalLink aria-hidden />
            View
          </a>
        </Button>
        <Button
          variant="ghost"
          size="sm"
          className="text-danger hover:text-danger"
          onClick={() => setConfirming(true)}
          aria-label={`Delete ${game.title}`}
        >
          <Trash2 aria-hidden />
          Delete
        </Button>
      </div>
      <ConfirmDelete kind="game" title={game.title} open={confirming} onOpenChange={setConfirming} onConfirm={remove} />
    </li>
  );
}
