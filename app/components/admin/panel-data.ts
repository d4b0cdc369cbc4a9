import type { Game, GameContent, Guide } from "#app/db/schema.ts";
import type { ContactInbox } from "#app/domain/contact-admin.server.ts";
import type { PlayerDetail, PlayerSummary } from "#app/domain/players-admin.server.ts";
import type { Dashboard } from "#app/lib/admin-dashboard.ts";
import type { InboxFilter } from "#app/lib/admin-inbox.ts";
import type { GameModelChoices } from "#app/lib/game-models.ts";
import type { ModelPrice } from "#app/lib/model-calls.ts";

/** A game_content record as the panel lists it: with its game's title. */
export type AdminContent = GameContent & { gameTitle: string };

/** The players tab: a search and its results, and the player opened from them (`?player=id`). */
export interface PlayersView {
  query: string;
  results: PlayerSummary[];
  /** null: no player is open; "missing": the one asked for does not exist. */
  selected: PlayerDetail | "missing" | null;
}

/**
 * What the /admin loader reads; `null` marks a list the server could not read. The overview and the
 * players tab are read only while they are open (`undefined` otherwise).
 */
export interface AdminPanelData {
  games: Game[] | null;
  content: AdminContent[] | null;
  guides: Guide[] | null;
  inbox: (ContactInbox & { filter: InboxFilter }) | null;
  dashboard?: Dashboard | null;
  players?: PlayersView | null;
  /** The price table (the Models tab), read while it is open. */
  modelPrices?: ModelPrice[] | null;
  /** The models and budgets a game may choose, with its recent turns (the games tab), read while it is open. */
  gameModels?: GameModelChoices | null;
}

/** The games a content form can choose from. */
export type GameChoice = Pick<Game, "slug" | "title">;
