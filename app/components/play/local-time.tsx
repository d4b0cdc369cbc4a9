import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * A message's time in the reader's own time zone. The server does not know that zone, so the
 * time is filled in once the page runs in the browser (no hydration mismatch).
 */
export function LocalTime({ iso, className }: { iso: string; className?: string }) {
  const hydrated = useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
  const date = new Date(iso);
  const label = hydrated
    ? new Intl.DateTimeFormat(undefined, {
        hour: "numeric",
        minute: "2-digit",
        ...(date.toDateString() === new Date().toDateString() ? {} : { month: "short", day: "numeric" }),
      }).format(date)
    : "";
  return (
    <time dateTime={iso} className={className} title={hydrated ? date.toLocaleString() : undefined}>
      {label}
    </time>
  );
}
