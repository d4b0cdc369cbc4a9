import { LoaderCircle } from "lucide-react";
import { useEffect, useRef } from "react";
import { Link, redirect, useNavigate } from "react-router";
import { toast } from "#app/components/toast.ts";
import { AUTH_TOASTS, AuthShell, GoogleButton, OrDivider, SignInForm, SignUpForm } from "#app/components/auth-forms.tsx";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "#app/components/ui/tabs.tsx";
import { useRootData } from "#app/components/use-root-data.ts";
import { getSessionUser, googleSignInEnabled } from "#app/domain/auth.server.ts";
import { getActiveGame } from "#app/domain/games.server.ts";
import { authPath, googleSignInErrorMessage, safeRedirectPath, signUpToPlayReason } from "#app/lib/auth.ts";
import { STARTER_CREDITS } from "#app/lib/constants.ts";
import type { Route } from "./+types/auth";

type Tab = "signin" | "signup";
type Welcome = "new" | "back";

function parseWelcome(value: string | null): Welcome | null {
  return value === "new" || value === "back" ? value : null;
}

/**
 * Why the visitor is here, when a page sent them (`reason=play&game=<slug>` from Start Playing):
 * the line is written from the game found on the server, never from the address's text.
 */
async function reasonFor(params: URLSearchParams): Promise<string | null> {
  if (params.get("reason") !== "play") return null;
  const game = await getActiveGame(params.get("game") ?? "");
  return game ? signUpToPlayReason(game.title) : null;
}

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const redirectTo = safeRedirectPath(url.searchParams.get("redirectTo"));
  const welcome = parseWelcome(url.searchParams.get("welcome"));
  const user = await getSessionUser(request);
  if (user) {
    // Google sends the player back here once signed in; greet them, then go on.
    if (welcome) return { kind: "welcome" as const, welcome, redirectTo };
    throw redirect(redirectTo);
  }
  const error = url.searchParams.get("error");
  const tab: Tab = url.searchParams.get("tab") === "signup" ? "signup" : "signin";
  return {
    kind: "form" as const,
    redirectTo,
    tab,
    googleEnabled: googleSignInEnabled(),
    googleError: error ? googleSignInErrorMessage(error) : null,
    reason: await reasonFor(url.searchParams),
  };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const siteName = matches[0].loaderData.site.name;
  return [
    { title: `Sign In or Sign Up — ${siteName}` },
    {
      name: "description",
      content: `Sign in to ${siteName} to continue your stories, or create an account and receive ${STARTER_CREDITS} free credits.`,
    },
    { name: "robots", content: "noindex" },
  ];
};

export default function AuthPage({ loaderData }: Route.ComponentProps) {
  return loaderData.kind === "welcome" ? (
    <CompletingSignIn welcome={loaderData.welcome} redirectTo={loaderData.redirectTo} />
  ) : (
    <AuthForms {...loaderData} />
  );
}

function AuthForms({
  redirectTo,
  tab,
  googleEnabled,
  googleError,
  reason,
}: {
  redirectTo: string;
  tab: Tab;
  googleEnabled: boolean;
  googleError: string | null;
  reason: string | null;
}) {
  const navigate = useNavigate();
  const reported = useRef<string | null>(null);

  useEffect(() => {
    if (!googleError || reported.current === googleError) return;
    reported.current = googleError;
    toast.error(AUTH_TOASTS.googleFailed, { description: googleError, duration: 12_000 });
    // Drop ?error= so a reload does not report it again.
    void navigate(authPath(redirectTo, tab === "signup" ? { tab } : {}), { replace: true, preventScrollReset: true });
  }, [googleError, navigate, redirectTo, tab]);

  return (
    <AuthShell
      title="Your Story Awaits"
      intro={reason ?? `Sign in to continue your adventures, or create an account and receive ${STARTER_CREDITS} free credits.`}
      footer={
        <p className="mt-6 text-center text-xs text-parchment-dim">
          By continuing you agree to our{" "}
          <Link to="/terms" className="text-parchment underline-offset-4 hover:text-gold hover:underline">
            Terms
          </Link>{" "}
          and{" "}
          <Link to="/privacy" className="text-parchment underline-offset-4 hover:text-gold hover:underline">
            Privacy Policy
          </Link>
          .
        </p>
      }
    >
      <Tabs defaultValue={tab}>
        <TabsList className="grid w-full grid-cols-2">
          <TabsTrigger value="signin">Sign In</TabsTrigger>
          <TabsTrigger value="signup">Sign Up</TabsTrigger>
        </TabsList>
        <TabsContent value="signin">
          <GoogleButton label="Continue with Google" enabled={googleEnabled} redirectTo={redirectTo} fromTab="signin" />
          <OrDivider />
          <SignInForm redirectTo={redirectTo} />
        </TabsContent>
        <TabsContent value="signup">
          <GoogleButton label="Sign up with Google" enabled={googleEnabled} redirectTo={redirectTo} fromTab="signup" />
          <OrDivider />
          <SignUpForm redirectTo={redirectTo} />
        </TabsContent>
      </Tabs>
    </AuthShell>
  );
}

/** Back from Google, signed in: the greeting SPEC asks for, then the page the player came from. */
function CompletingSignIn({ welcome, redirectTo }: { welcome: Welcome; redirectTo: string }) {
  const navigate = useNavigate();
  const { site } = useRootData();
  const greeted = useRef(false);

  useEffect(() => {
    if (greeted.current) return;
    greeted.current = true;
    if (welcome === "new") {
      toast.success(AUTH_TOASTS.welcome(site.name), { description: AUTH_TOASTS.starterCredits, duration: 8000 });
    } else {
      toast.success(AUTH_TOASTS.signedIn.title, { description: AUTH_TOASTS.signedIn.description });
    }
    void navigate(redirectTo, { replace: true });
  }, [navigate, redirectTo, site.name, welcome]);

  return (
    <div className="flex min-h-[60dvh] flex-col items-center justify-center gap-4 px-4 text-center" role="status">
      <LoaderCircle className="size-8 animate-spin text-gold" strokeWidth={1.75} aria-hidden />
      <p className="text-parchment-dim">Signing you in...</p>
      <Link to={redirectTo} replace className="text-sm text-gold underline-offset-4 hover:underline">
        Continue
      </Link>
    </div>
  );
}
