import { Inbox, RefreshCw } from "lucide-react";
import { data, Link, useRevalidator } from "react-router";
import { PageHeader } from "#app/components/page-header.tsx";
import { LocalTime } from "#app/components/play/local-time.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { DEMO_MAILBOX_SIZE, demoMailbox, demoMailboxOpen } from "#app/domain/mail.server.ts";
import { clientAddress } from "#app/domain/rate-limit.server.ts";
import { personalPageHeaders } from "#app/http/guards.server.ts";
import { isLoopbackAddress } from "#app/lib/addresses.ts";
import type { Route } from "./+types/dev-mailbox";

/** Every mail in it is someone's: never kept by a browser or a shared cache. */
export const headers = personalPageHeaders;

/**
 * The demo mailbox (docs/decisions/049): in the demo, the mail the site would have sent, readable
 * in the browser of the machine it runs on. Anywhere else — production, a site with SMTP_URL, or a
 * demo reached from another machine, where it would show strangers each other's reset links —
 * there is no such page.
 */
export function loader({ request }: Route.LoaderArgs) {
  if (!demoMailboxOpen() || !isLoopbackAddress(clientAddress(request))) throw data(null, { status: 404 });
  return { mails: demoMailbox(), kept: DEMO_MAILBOX_SIZE };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Demo mailbox | ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

/** A mail's text with its addresses as links (the mails are the site's own: confirmation and reset links). */
function MailText({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/\S+)/);
  return (
    <p className="text-[15px] leading-relaxed whitespace-pre-wrap text-parchment [overflow-wrap:anywhere]">
      {parts.map((part, index) =>
        index % 2 === 1 ? (
          <a key={index} href={part} className="text-gold underline underline-offset-2 hover:text-parchment">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </p>
  );
}

export default function DemoMailboxPage({ loaderData: { mails, kept } }: Route.ComponentProps) {
  const { revalidate, state } = useRevalidator();
  return (
    <>
      <PageHeader
        eyebrow="Demo"
        title="Demo mailbox"
        description="This demo sends no email. The mail it would have sent — account confirmations, password resets — is kept here instead, newest first, until the server restarts."
      />
      <section aria-label="Mail" className="mx-auto max-w-3xl space-y-5 px-4 py-10 sm:px-6">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-parchment-dim">
            {mails.length === 0 ? "No mail yet." : mails.length === 1 ? "1 mail." : `${mails.length} mails.`} The newest {kept} are kept.
          </p>
          <Button variant="outline" size="sm" onClick={() => void revalidate()} disabled={state === "loading"}>
            <RefreshCw className={state === "loading" ? "animate-spin" : undefined} aria-hidden />
            Check for new mail
          </Button>
        </div>
        {mails.length === 0 ? (
          <Card className="flex flex-col items-center gap-3 px-6 py-12 text-center">
            <Inbox className="size-8 text-gold" aria-hidden />
            <p className="text-parchment">Nothing has been sent yet.</p>
            <p className="max-w-md text-sm text-parchment-dim">
              When you{" "}
              <Link to="/auth?tab=signup" className="text-gold underline underline-offset-2">
                create an account
              </Link>{" "}
              or ask for a password reset, the mail appears here.
            </p>
          </Card>
        ) : (
          <ol className="space-y-4">
            {mails.map((mail) => (
              <li key={mail.id}>
                <Card className="p-5 sm:p-6">
                  <article aria-labelledby={`mail-${mail.id}`}>
                    <h2 id={`mail-${mail.id}`} className="text-2xl text-parchment">
                      {mail.subject}
                    </h2>
                    <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-parchment-dim">
                      <dt>To</dt>
                      <dd className="break-all text-parchment">{mail.to}</dd>
                      <dt>From</dt>
                      <dd className="break-all">{mail.from}</dd>
                      <dt>Sent</dt>
                      <dd>
                        <LocalTime iso={mail.sentAt} />
                      </dd>
                    </dl>
                    <div className="mt-4 border-t border-ink-line pt-4">
                      <MailText text={mail.text} />
                    </div>
                  </article>
                </Card>
              </li>
            ))}
          </ol>
        )}
        <p className="text-sm text-parchment-dim">
          A site that sends real mail sets <code className="text-parchment">SMTP_URL</code>; it has no mailbox page.
        </p>
      </section>
    </>
  );
}
