import { Eye, EyeOff, LoaderCircle } from "lucide-react";
import { useId, useState, type ComponentProps, type SubmitEvent, type ReactNode } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "#app/components/toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { Card } from "#app/components/ui/card.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Label } from "#app/components/ui/label.tsx";
import { authPath, RESET_PASSWORD_PATH, VERIFY_EMAIL_PATH } from "#app/lib/auth.ts";
import { DEMO_MAILBOX_PATH } from "#app/lib/site.ts";
import { callAuth } from "#app/lib/auth-client.ts";
import { CREDITS_PER_MESSAGE, MAX_USERNAME_LENGTH, MIN_PASSWORD_LENGTH, STARTER_CREDITS } from "#app/lib/constants.ts";
import { cn } from "#app/lib/utils.ts";
import { useRootData } from "./use-root-data.ts";

/** docs/spec.md §8's auth toasts, verbatim. */
export const AUTH_TOASTS = {
  missingFields: { title: "Error", description: "Please fill in all fields" },
  signInFailed: "Sign In Failed",
  signUpFailed: "Sign Up Failed",
  googleFailed: "Google Sign In Failed",
  signedIn: { title: "Welcome back!", description: "You have successfully signed in" },
  welcome: (siteName: string) => `Welcome to ${siteName}!`,
  starterCredits: `You've received ${STARTER_CREDITS} free credits! Each message costs ${CREDITS_PER_MESSAGE} credit.`,
  confirmEmail: "Please check your email to confirm your account.",
} as const;

export const GOOGLE_NOT_CONFIGURED = "Google sign-in is not configured on this server";

/** In the demo no mail leaves the server: where to read it instead (app/routes/dev-mailbox.tsx). */
export function DemoMailboxNote({ mail }: { mail: string }) {
  return (
    <>
      This demo sends no real email: {mail} is in the{" "}
      <Link to={DEMO_MAILBOX_PATH} className="font-semibold text-gold underline underline-offset-2">
        demo mailbox
      </Link>
      .
    </>
  );
}

/** The frame of the account pages: ornament, title, one sentence, the card. */
export function AuthShell({ title, intro, children, footer }: { title: string; intro: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <section className="relative overflow-hidden bg-gradient-to-b from-ink via-ink to-plum/20">
      <div className="mx-auto flex max-w-md flex-col px-4 py-12 sm:py-20">
        <div aria-hidden className="mx-auto mb-6 h-px w-32 bg-gradient-to-r from-transparent via-gold to-transparent" />
        <h1 className="text-center text-4xl text-parchment sm:text-5xl">{title}</h1>
        <p className="mt-3 text-center text-parchment-dim">{intro}</p>
        <Card className="mt-8 p-5 shadow-2xl shadow-black/30 sm:p-8">{children}</Card>
        {footer}
      </div>
    </section>
  );
}

function missingFields() {
  toast.error(AUTH_TOASTS.missingFields.title, { description: AUTH_TOASTS.missingFields.description });
}

function formText(form: FormData, name: string) {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
}

function Field({ label, hint, id, children }: { label: string; hint?: string; id: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-parchment-dim">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function PasswordInput({ className, ...props }: ComponentProps<"input">) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Input {...props} type={visible ? "text" : "password"} className={cn("pr-12", className)} />
      <button
        type="button"
        onClick={() => setVisible(!visible)}
        aria-label={visible ? "Hide password" : "Show password"}
        aria-pressed={visible}
        className="absolute inset-y-0 right-0 grid w-11 place-items-center rounded-r-lg text-parchment-dim hover:text-parchment"
      >
        {visible ? (
          <EyeOff className="size-[18px]" strokeWidth={1.75} aria-hidden />
        ) : (
          <Eye className="size-[18px]" strokeWidth={1.75} aria-hidden />
        )}
      </button>
    </div>
  );
}

function SubmitButton({ pending, label, pendingLabel }: { pending: boolean; label: string; pendingLabel: string }) {
  return (
    <Button type="submit" size="lg" className="mt-2 w-full" disabled={pending}>
      {pending ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
      {pending ? pendingLabel : label}
    </Button>
  );
}

function GoogleLogo() {
  return (
    <svg viewBox="0 0 48 48" aria-hidden className="size-5">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path fill="#FF3D00" d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z" />
      <path fill="#4CAF50" d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z" />
      <path fill="#1976D2" d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z" />
    </svg>
  );
}

/**
 * 'Continue with Google': asks better-auth for Google's address and goes there. Google sends the
 * player back to /auth, which greets them (new or returning) or shows why it failed.
 */
export function GoogleButton({
  label,
  enabled,
  redirectTo,
  fromTab,
}: {
  label: string;
  enabled: boolean;
  redirectTo: string;
  fromTab: "signin" | "signup";
}) {
  const hintId = useId();
  const [pending, setPending] = useState(false);

  async function start() {
    setPending(true);
    const result = await callAuth<{ url?: string }>("/sign-in/social", {
      provider: "google",
      callbackURL: authPath(redirectTo, { welcome: "back" }),
      newUserCallbackURL: authPath(redirectTo, { welcome: "new" }),
      errorCallbackURL: authPath(redirectTo, fromTab === "signup" ? { tab: "signup" } : {}),
    });
    if (result.ok && result.data.url) {
      window.location.assign(result.data.url);
      return;
    }
    setPending(false);
    toast.error(AUTH_TOASTS.googleFailed, { description: result.ok ? "Google did not answer. Please try again." : result.message });
  }

  return (
    <div className="flex flex-col gap-2">
      <Button
        type="button"
        variant="secondary"
        size="lg"
        className="w-full"
        disabled={!enabled || pending}
        onClick={start}
        aria-describedby={enabled ? undefined : hintId}
      >
        {pending ? <LoaderCircle className="animate-spin" aria-hidden /> : <GoogleLogo />}
        {label}
      </Button>
      {enabled ? null : (
        <p id={hintId} className="text-center text-xs text-parchment-dim">
          {GOOGLE_NOT_CONFIGURED}
        </p>
      )}
    </div>
  );
}

export function OrDivider() {
  return (
    <div className="my-6 flex items-center gap-3 text-xs tracking-wider text-parchment-dim uppercase">
      <span aria-hidden className="h-px flex-1 bg-ink-line" />
      or with email
      <span aria-hidden className="h-px flex-1 bg-ink-line" />
    </div>
  );
}

export function SignInForm({ redirectTo }: { redirectTo: string }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = formText(form, "email").trim();
    const password = formText(form, "password");
    if (!email || !password) return missingFields();
    setPending(true);
    const result = await callAuth("/sign-in/email", { email, password, rememberMe: true });
    if (!result.ok) {
      setPending(false);
      toast.error(AUTH_TOASTS.signInFailed, { description: result.message });
      return;
    }
    toast.success(AUTH_TOASTS.signedIn.title, { description: AUTH_TOASTS.signedIn.description });
    await navigate(redirectTo, { replace: true });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Sign in with email">
      <Field label="Email" id="signin-email">
        <Input id="signin-email" name="email" type="email" autoComplete="email" inputMode="email" placeholder="you@example.com" />
      </Field>
      <div className="flex flex-col gap-2">
        <div className="flex items-baseline justify-between gap-3">
          <Label htmlFor="signin-password">Password</Label>
          <Link to={RESET_PASSWORD_PATH} className="text-sm text-parchment-dim underline-offset-4 hover:text-gold hover:underline">
            Forgot password?
          </Link>
        </div>
        <PasswordInput id="signin-password" name="password" autoComplete="current-password" placeholder="Your password" />
      </div>
      <SubmitButton pending={pending} label="Sign In" pendingLabel="Signing in..." />
    </form>
  );
}

export function SignUpForm({ redirectTo }: { redirectTo: string }) {
  const navigate = useNavigate();
  const { site, demoMailbox } = useRootData();
  const [pending, setPending] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = formText(form, "email").trim();
    const password = formText(form, "password");
    const username = formText(form, "username").trim();
    if (!email || !password) return missingFields();
    setPending(true);
    const result = await callAuth("/sign-up/email", { email, password, name: username, callbackURL: VERIFY_EMAIL_PATH });
    if (!result.ok) {
      setPending(false);
      toast.error(AUTH_TOASTS.signUpFailed, { description: result.message });
      return;
    }
    toast.success(AUTH_TOASTS.welcome(site.name), {
      description: demoMailbox ? (
        <>
          {AUTH_TOASTS.starterCredits} <DemoMailboxNote mail="your confirmation mail" />
        </>
      ) : (
        `${AUTH_TOASTS.starterCredits} ${AUTH_TOASTS.confirmEmail}`
      ),
      // Long enough to read, and to reach the link.
      duration: demoMailbox ? 15_000 : 8000,
    });
    await navigate(redirectTo, { replace: true });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Sign up with email">
      <Field label="Email" id="signup-email">
        <Input id="signup-email" name="email" type="email" autoComplete="email" inputMode="email" placeholder="you@example.com" />
      </Field>
      <Field
        label="Username (optional)"
        id="signup-username"
        hint="Shown to you in your stories. Leave it empty to use the first part of your email."
      >
        <Input
          id="signup-username"
          name="username"
          autoComplete="nickname"
          maxLength={MAX_USERNAME_LENGTH}
          placeholder="Empress Lin"
          aria-describedby="signup-username-hint"
        />
      </Field>
      <NewPasswordField id="signup-password" label="Password" />
      <SubmitButton pending={pending} label="Create Account" pendingLabel="Creating account..." />
    </form>
  );
}

/** A password being chosen (sign-up, reset), with the length rule under it. */
function NewPasswordField({ id, label }: { id: string; label: string }) {
  return (
    <Field label={label} id={id} hint={`At least ${MIN_PASSWORD_LENGTH} characters.`}>
      <PasswordInput id={id} name="password" autoComplete="new-password" placeholder="Choose a password" aria-describedby={`${id}-hint`} />
    </Field>
  );
}

/** Asks for a reset link. The answer is the same whether or not the address has an account. */
export function RequestPasswordResetForm() {
  const { demoMailbox } = useRootData();
  const [pending, setPending] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const email = formText(new FormData(event.currentTarget), "email").trim();
    if (!email) return missingFields();
    setPending(true);
    const result = await callAuth("/request-password-reset", { email, redirectTo: RESET_PASSWORD_PATH });
    setPending(false);
    if (!result.ok) {
      toast.error("Error", { description: result.message });
      return;
    }
    setSentTo(email);
    toast.success("Check your email", { description: `If an account exists for ${email}, a link to choose a new password is on its way.` });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Ask for a password reset link">
      <Field label="Email" id="reset-email">
        <Input id="reset-email" name="email" type="email" autoComplete="email" inputMode="email" placeholder="you@example.com" />
      </Field>
      {sentTo ? (
        <p role="status" className="rounded-lg border border-gold/40 bg-gold/10 px-3.5 py-2.5 text-sm text-parchment">
          If an account exists for <strong>{sentTo}</strong>, a link to choose a new password is on its way. It works for one hour.
          {demoMailbox ? (
            <>
              {" "}
              <DemoMailboxNote mail="the mail" />
            </>
          ) : null}
        </p>
      ) : null}
      <SubmitButton pending={pending} label={sentTo ? "Send Another Link" : "Send Reset Link"} pendingLabel="Sending..." />
      <Link to="/auth" className="text-center text-sm text-parchment-dim underline-offset-4 hover:text-gold hover:underline">
        Back to Sign In
      </Link>
    </form>
  );
}

/** Sets the new password with the token from the mailed link; every other session is signed out. */
export function NewPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const password = formText(new FormData(event.currentTarget), "password");
    if (!password) return missingFields();
    setPending(true);
    const result = await callAuth("/reset-password", { newPassword: password, token });
    if (!result.ok) {
      setPending(false);
      toast.error("Password Reset Failed", { description: result.message });
      return;
    }
    toast.success("Password changed", { description: "Sign in with your new password." });
    await navigate("/auth", { replace: true });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-4" aria-label="Choose a new password">
      <NewPasswordField id="new-password" label="New password" />
      <SubmitButton pending={pending} label="Save New Password" pendingLabel="Saving..." />
    </form>
  );
}
