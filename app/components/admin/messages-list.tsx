import { Inbox, Mail, UserRound } from "lucide-react";
import type { ContactMessage } from "#app/db/schema.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { EmptyState, LoadFailed } from "./form-controls.tsx";

// UTC on both sides, so the server's HTML and the browser's render agree.
const receivedAt = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** Messages sent through the contact form, newest first. */
export function MessagesList({ inbox }: { inbox: { messages: ContactMessage[]; total: number } | null }) {
  return (
    <section aria-labelledby="messages-heading" className="space-y-5">
      <div>
        <h2 id="messages-heading" className="text-3xl">
          Messages
        </h2>
        <p className="text-sm text-parchment-dim">
          {inbox
            ? inbox.total > inbox.messages.length
              ? `The newest ${inbox.messages.length} of ${inbox.total} messages from the contact form.`
              : `${inbox.total} ${inbox.total === 1 ? "message" : "messages"} from the contact form, newest first.`
            : null}
        </p>
      </div>
      {inbox === null ? (
        <LoadFailed message={ADMIN_TEXTS.messagesLoadFailed} />
      ) : inbox.messages.length === 0 ? (
        <EmptyState icon={<Inbox />} title="No messages yet">
          <p className="text-sm text-parchment-dim">Messages sent through the contact form appear here.</p>
        </EmptyState>
      ) : (
        <ol className="space-y-3">
          {inbox.messages.map((message) => (
            <li key={message.id} className="rounded-[var(--radius-card)] border border-ink-line bg-ink-raised p-4 sm:p-5">
              <article aria-label={message.subject}>
                <header className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                  <h3 className="font-display text-xl leading-snug break-words">{message.subject}</h3>
                  <time dateTime={message.createdAt.toISOString()} className="text-xs text-parchment-dim">
                    {receivedAt.format(message.createdAt)} UTC
                  </time>
                </header>
                <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-parchment-dim">
                  <span className="inline-flex items-center gap-1.5">
                    <UserRound className="size-3.5" aria-hidden />
                    {message.name}
                  </span>
                  <a
                    href={`mailto:${message.email}?subject=${encodeURIComponent(`Re: ${message.subject}`)}`}
                    className="inline-flex min-w-0 items-center gap-1.5 break-all text-gold hover:underline"
                  >
                    <Mail className="size-3.5 shrink-0" aria-hidden />
                    {message.email}
                  </a>
                  {message.userId ? <span className="text-xs">(signed-in player)</span> : null}
                </p>
                <p className="mt-3 text-[15px] break-words whitespace-pre-wrap text-parchment">{message.message}</p>
              </article>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
