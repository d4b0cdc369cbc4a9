import { LoaderCircle, MailCheck } from "lucide-react";
import { useState } from "react";
import { Link, redirect } from "react-router";
import { DemoMailboxNote } from "#app/components/auth-forms.tsx";
import { toast } from "#app/components/toast.ts";
import { StatusPage } from "#app/components/status-page.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { getSessionUser } from "#app/domain/auth.server.ts";
import { authPath, VERIFY_EMAIL_PATH, verificationErrorMessage } from "#app/lib/auth.ts";
import { callAuth } from "#app/lib/auth-client.ts";
import type { Route } from "./+types/auth.verify-email";

/**
 * Where a confirmation link lands (better-auth confirms, signs the player in and sends them here,
 * with ?error= when the link is expired or invalid), and where an unconfirmed player asks for a
 * new link — the chat's "confirm your email" answer points here.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const error = new URL(request.url).searchParams.get("error");
  const user = await getSessionUser(request);
  if (!user && !error) throw redirect(authPath(VERIFY_EMAIL_PATH));
  return {
    email: user?.email ?? null,
    verified: user?.emailVerified ?? false,
    error: error ? verificationErrorMessage(error) : null,
  };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Confirm your email — ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

export default function VerifyEmailPage({ loaderData: { email, verified, error } }: Route.ComponentProps) {
  const { demoMailbox } = useRootData();
  if (verified && email) {
    return (
      <StatusPage
        title="Email Confirmed"
        actions={
          <>
            <Button asChild>
              <Link to="/games">Start Playing</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/credits">View Credits</Link>
            </Button>
          </>
        }
      >
        <p>
          Thank you — <strong className="text-parchment">{email}</strong> is confirmed. Your account is ready for every adventure.
        </p>
      </StatusPage>
    );
  }
  if (!email) {
    return (
      <StatusPage
        title="Confirmation Failed"
        actions={
          <Button asChild>
            <Link to={authPath(VERIFY_EMAIL_PATH)}>Sign in to get a new link</Link>
          </Button>
        }
      >
        <p>{error}</p>
      </StatusPage>
    );
  }
  return (
    <StatusPage title={error ? "Confirmation Failed" : "Confirm Your Email"} actions={<ResendButton email={email} />}>
      {error ? <p className="mb-3">{error}</p> : null}
      <p>
        We sent a confirmation link to <strong className="text-parchment">{email}</strong>. Open it to confirm your account;{" "}
        {demoMailbox ? <DemoMailboxNote mail="the mail" /> : "it can take a minute to arrive, so check your spam folder too."}
      </p>
    </StatusPage>
  );
}

function ResendButton({ email }: { email: string }) {
  const { demoMailbox } = useRootData();
  const [pending, setPending] = useState(false);

  async function resend() {
    setPending(true);
    const result = await callAuth("/send-verification-email", { email, callbackURL: VERIFY_EMAIL_PATH });
    setPending(false);
    if (result.ok) {
      toast.success("Confirmation email sent", {
        description: demoMailbox ? (
          <>
            We sent a new link to {email}. <DemoMailboxNote mail="it" />
          </>
        ) : (
          `We sent a new link to ${email}.`
        ),
      });
    } else {
      toast.error("Could not send the email", { description: result.message });
    }
  }

  return (
    <Button onClick={resend} disabled={pending}>
      {pending ? <LoaderCircle className="animate-spin" aria-hidden /> : <MailCheck aria-hidden />}
      Resend confirmation email
    </Button>
  );
}
