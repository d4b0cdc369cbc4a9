import type { ContactMessage, Game, GameContent, Guide } from "#app/db/schema.ts";

/** A game_content record as the panel lists it: with its game's title. */
export type AdminContent = GameContent & { gameTitle: string };

/** What the /admin loader reads; `null` marks a list the server could not read. */
export interface AdminPanelData {
  games: Game[] | null;
  content: AdminContent[] | null;
  guides: Guide[] | null;
  inbox: { messages: ContactMessage[]; total: number } | null;
}

/** The games a content form can choose from. */
export type GameChoice = Pick<Game, "slug" | "title">;
