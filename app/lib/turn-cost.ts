import { CREDITS_PER_MESSAGE, type TurnKind } from "./constants.ts";

/**
 * What a turn costs the player, in credits: the one pricing rule. The play screen prices its
 * controls with it; the server passes its answers to begin_turn
 * (app/db/functions/begin_turn.sql), which applies them to the exchange it finds under
 * the story's lock and returns what it charged. Nothing else decides a price.
 *
 * The reply that opens a story (exchange 1, written, retried or edited) is free while the player
 * has free openings left; Continue always costs, since it writes more of a reply already given.
 */
export interface TurnCostInput {
  kind: TurnKind;
  /** The exchange the call lands on: the next one for a turn, the latest for the story controls. */
  exchange: number;
  /** Whether the player's free openings (a few a minute, a daily allowance) are not used up. */
  freeOpeningAvailable: boolean;
}

export function turnCost({ kind, exchange, freeOpeningAvailable }: TurnCostInput): number {
  return opensStory({ kind, exchange }) && freeOpeningAvailable ? 0 : CREDITS_PER_MESSAGE;
}

/** Whether a call writes the reply that opens a story: the only kind of call that may be free. */
export function opensStory({ kind, exchange }: Pick<TurnCostInput, "kind" | "exchange">): boolean {
  return exchange === 1 && kind !== "continue";
}

/**
 * The prices a turn of `kind` may cost, for begin_turn to choose between once it has
 * locked the story and found the exchange the call lands on (docs/decisions/041): `freeOpening`
 * on the opening while the player has a free opening left, `otherwise` anywhere else. Both are
 * turnCost's answers: the rule prices an exchange only by whether it opens the story, and a
 * call whose two prices are equal (Continue) never uses up a free opening.
 */
export function turnPrices(kind: TurnKind): { freeOpening: number; otherwise: number } {
  return {
    freeOpening: turnCost({ kind, exchange: 1, freeOpeningAvailable: true }),
    otherwise: turnCost({ kind, exchange: 1, freeOpeningAvailable: false }),
  };
}
