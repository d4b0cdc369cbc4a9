import { AlertTriangle, SearchX } from "lucide-react";
import type { ReactNode } from "react";

/** The designed empty and error states of the game lists (SPEC's texts come from the caller). */
export function GameListMessage({
  tone,
  title,
  children,
  actions,
}: {
  tone: "empty" | "error";
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  const Icon = tone === "error" ? AlertTriangle : SearchX;
  return (
    <div
      role={tone === "error" ? "alert" : undefined}
      className="flex flex-col items-center rounded-[var(--radius-card)] border border-ink-line bg-ink-raised px-6 py-14 text-center"
    >
      <span aria-hidden className="grid size-14 place-items-center rounded-full border border-ink-line text-gold">
        <Icon className="size-6" strokeWidth={1.75} />
      </span>
      <h3 className="mt-5 text-3xl text-parchment">{title}</h3>
      <div className="mt-2 text-parchment-dim">{children}</div>
      {actions ? <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div> : null}
    </div>
  );
}

export const GAMES_FAILED_TITLE = "Failed to load games";
export const GAMES_FAILED_TEXT = "Please try again later.";
