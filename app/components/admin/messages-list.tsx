import { CircleCheck, CornerDownRight, Inbox, Mail, Send, Undo2, UserRound } from "lucide-react";
import { useState, type SubmitEvent } from "react";
import { toast } from "#app/components/toast.ts";
import { Badge } from "#app/components/ui/badge.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/input.tsx";
import type { InboxMessage } from "#app/domain/contact-admin.server.ts";
import { INBOX_FILTERS, replyInputSchema, type InboxFilter } from "#app/lib/admin-inbox.ts";
import { fieldErrorsOf } from "#app/lib/admin-forms.ts";
import { ADMIN_TEXTS } from "#app/lib/admin-texts.ts";
import { cn } from "#app/lib/utils.ts";
import { adminSearch, type AdminView } from "./admin-view.ts";
import { controlProps, EmptyState, Field, LoadFailed } from "./form-controls.tsx";
import { SegmentedLinks } from "./segmented-links.tsx";
import type { AdminPanelData } from "./panel-data.ts";
import { useAdminRequest } from "./use-admin-request.ts";
import { useUnsavedChanges } from "./unsaved-changes.tsx";

// UTC on both sides, so the server's HTML and the browser's render agree.
const receivedAt = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
const FILTER_LABELS: Record<InboxFilter, string> = { all: "All", unhandled: "Unhandled", handled: "Handled" };

function summary(inbox: NonNullable<AdminPanelData["inbox"]>) {
  const shown = inbox.messages.length;
  const kind = inbox.filter === "all" ? "" : `${inbox.filter} `;
  if (inbox.total > shown) return `The newest ${shown} of ${inbox.total} ${kind}messages from the contact form.`;
  return `${inbox.total} ${kind}${inbox.total === 1 ? "message" : "messages"} from the contact form, newest first. ${inbox.unhandled} waiting.`;
}

/** Messages sent through the contact form, newest first: mark them handled, answer them by email. */
export function MessagesList({ inbox, view }: { inbox: AdminPanelData["inbox"]; view: AdminView }) {
  return (
    <section aria-labelledby="messages-heading" className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h2 id="messages-heading" className="text-3xl">
            Messages
          </h2>
          <p className="text-sm text-parchment-dim">{inbox ? summary(inbox) : null}</p>
        </div>
        <SegmentedLinks
          label="Show messages"
          options={INBOX_FILTERS.map((filter) => ({ value: filter, label: FILTER_LABELS[filter] }))}
          current={view.inbox}
          search={(filter) => adminSearch({ ...view, tab: "messages", inbox: filter })}
        />
      </div>
      {inbox === null ? (
        <LoadFailed message={ADMIN_TEXTS.messagesLoadFailed} />
      ) : inbox.messages.length === 0 ? (
        <EmptyState icon={<Inbox />} title={view.inbox === "all" ? "No messages yet" : `No ${view.inbox} messages`}>
          <p className="text-sm text-parchment-dim">Messages sent through the contact form appear here.</p>
        </EmptyState>
      ) : (
        <ol className="space-y-3">
          {inbox.messages.map((message) => (
            <li key={message.id}>
              <Message message={message} />
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Message({ message }: { message: InboxMessage }) {
  const { send, pending } = useAdminRequest();
  const handled = Boolean(message.handledAt);

  async function toggleHandled() {
    const result = await send("PATCH", `/api/admin/contact-messages/${message.id}`, { handled: !handled });
    if (result.ok) toast.success(handled ? "Marked as unhandled" : "Marked as handled");
    else toast.error("The message was not changed", { description: result.error });
  }

  return (
    <article
      aria-label={message.subject}
      className={cn("rounded-[var(--radius-card)] border bg-ink-raised p-4 sm:p-5", handled ? "border-ink-line" : "border-gold/40")}
    >
      <header className="flex flex-wrap items-start justify-between gap-x-4 gap-y-2">
        <div className="min-w-0">
          <h3 className="font-display text-xl leading-snug break-words">{message.subject}</h3>
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
        </div>
        <div className="flex flex-col items-end gap-2">
          <time dateTime={new Date(message.createdAt).toISOString()} className="text-xs text-parchment-dim">
            {receivedAt.format(new Date(message.createdAt))} UTC
          </time>
          {handled ? <Badge variant="beginner">Handled</Badge> : <Badge variant="plum">Unhandled</Badge>}
        </div>
      </header>
      <p className="mt-3 text-[15px] break-words whitespace-pre-wrap text-parchment">{message.message}</p>
      {message.replies.length > 0 ? (
        <ol aria-label="Replies" className="mt-4 space-y-3 border-l-2 border-gold/40 pl-4">
          {message.replies.map((reply) => (
            <li key={reply.id}>
              <p className="flex flex-wrap items-center gap-x-2 text-xs text-parchment-dim">
                <CornerDownRight className="size-3.5 text-gold" aria-hidden />
                Reply by <span className="text-parchment">{reply.authorName}</span> ({reply.authorEmail}),{" "}
                <time dateTime={new Date(reply.createdAt).toISOString()}>{receivedAt.format(new Date(reply.createdAt))} UTC</time>
              </p>
              <p className="mt-1 text-[15px] break-words whitespace-pre-wrap text-parchment">{reply.body}</p>
            </li>
          ))}
        </ol>
      ) : null}
      <div className="mt-4 flex flex-col gap-3 border-t border-ink-line pt-4">
        <ReplyForm message={message} />
        <div>
          <Button variant="ghost" size="sm" disabled={pending} onClick={() => void toggleHandled()}>
            {handled ? <Undo2 aria-hidden /> : <CircleCheck aria-hidden />}
            {handled ? "Mark as unhandled" : "Mark as handled"}
          </Button>
        </div>
      </div>
    </article>
  );
}

function ReplyForm({ message }: { message: InboxMessage }) {
  const [body, setBody] = useState("");
  const [error, setError] = useState<string>();
  const { send, pending } = useAdminRequest();
  const id = `reply-${message.id}`;
  // A reply being written counts as unsaved work.
  useUnsavedChanges(body.trim() !== "");

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = replyInputSchema.safeParse({ body });
    if (!checked.success) {
      setError(fieldErrorsOf(checked.error).body);
      return;
    }
    const result = await send("POST", `/api/admin/contact-messages/${message.id}/replies`, checked.data);
    if (result.ok) {
      setBody("");
      setError(undefined);
      toast.success("Reply sent", { description: `Sent to ${message.email} and kept with the message.` });
      return;
    }
    setError(result.fieldErrors.body);
    toast.error("The reply was not sent", { description: result.error ?? "The server could not be reached. Please try again." });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-2">
      <Field id={id} label={`Reply to ${message.name}`} error={error}>
        <Textarea {...controlProps(id, error)} rows={3} value={body} onChange={(event) => setBody(event.target.value)} />
      </Field>
      <div>
        <Button type="submit" size="sm" disabled={pending}>
          <Send aria-hidden />
          {pending ? "Sending..." : "Send reply"}
        </Button>
      </div>
    </form>
  );
}
