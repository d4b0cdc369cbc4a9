import { isActionMode, type ActionMode } from "#app/lib/action-modes.ts";

/**
 * The player's choices kept in this browser (localStorage), not on the server: the Do / Say /
 * Story mode and the read-aloud settings (docs/decisions/058).
 */

const ACTION_MODE_KEY = "play.actionMode";

export function remembered(key: string): unknown {
  try {
    return JSON.parse(window.localStorage.getItem(key) ?? "null");
  } catch {
    // Storage refused (private browsing) or a value written by hand: the defaults.
    return null;
  }
}

export function remember(key: string, value: unknown) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Not remembered this time; the choice still holds for this page.
  }
}

export function rememberedActionMode(): ActionMode | null {
  const mode = remembered(ACTION_MODE_KEY);
  return isActionMode(mode) ? mode : null;
}

export function rememberActionMode(mode: ActionMode) {
  remember(ACTION_MODE_KEY, mode);
}
