import { AuthShell, NewPasswordForm, RequestPasswordResetForm } from "#app/components/auth-forms.tsx";
import { humanAuthMessage } from "#app/lib/auth.ts";
import type { Route } from "./+types/auth.reset-password";

/**
 * "Forgot password?": asks for a link by mail; the link (through better-auth, which checks it)
 * comes back here with ?token= to set the new password, or with ?error= when it is spent.
 */
export function loader({ request }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams;
  const error = params.get("error");
  return {
    token: error ? null : params.get("token"),
    error: error ? (humanAuthMessage(error) ?? "This link cannot be used. Please ask for a new one.") : null,
  };
}

export const meta: Route.MetaFunction = ({ matches }) => [
  { title: `Reset your password — ${matches[0].loaderData.site.name}` },
  { name: "robots", content: "noindex" },
];

export default function ResetPasswordPage({ loaderData: { token, error } }: Route.ComponentProps) {
  if (token) {
    return (
      <AuthShell
        title="Choose a New Password"
        intro="Once it is saved, every device signed in to your account is signed out; sign in again with the new password."
      >
        <NewPasswordForm token={token} />
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Reset Your Password" intro="Enter the email of your account and we will send you a link to choose a new password.">
      {error ? (
        <p role="alert" className="mb-5 rounded-lg border border-danger/50 bg-danger/10 px-3.5 py-2.5 text-sm text-parchment">
          {error}
        </p>
      ) : null}
      <RequestPasswordResetForm />
    </AuthShell>
  );
}
