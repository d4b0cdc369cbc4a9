import { lazy, Suspense, useEffect, useState, type ReactNode } from "react";
import { isRouteErrorResponse, Link, Links, Meta, Outlet, Scripts, ScrollRestoration, useLocation, useRouteLoaderData } from "react-router";
import displayFont from "@fontsource/cormorant-garamond/files/cormorant-garamond-latin-700-normal.woff2?url";
import textFont from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
import { useLiveCreditsStream } from "./components/live-credits.ts";
import { SiteFooter } from "./components/site-footer.tsx";
import { SiteHeader } from "./components/site-header.tsx";
import { NotFoundPage } from "./components/not-found-page.tsx";
import { StatusPage } from "./components/status-page.tsx";
import { Button } from "./components/ui/button.tsx";
import { onToastRequested } from "./components/toast.ts";
import { getSessionUser } from "./domain/auth.server.ts";
import { isModerator } from "./lib/moderation.ts";
import { getBalance } from "./domain/credits.server.ts";
import { demoMailboxOpen } from "./domain/mail.server.ts";
import { env } from "./env.server.ts";
import { edgeMiddleware } from "./http/edge.server.ts";
import type { RootData } from "./lib/site.ts";

export const links: Route.LinksFunction = () => [
  { rel: "preload", href: textFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: displayFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** Every request, page or API, passes the HTTP edge first. */
export const middleware: Route.MiddlewareFunction[] = [edgeMiddleware];

export async function loader({ request }: Route.LoaderArgs): Promise<RootData> {
  const config = env();
  const user = await getSessionUser(request);
  return {
    site: { name: config.SITE_NAME, supportEmail: config.SUPPORT_EMAIL, publicUrl: config.PUBLIC_URL },
    viewer: user
      ? { id: user.id, email: user.email, credits: await getBalance(user.id), isAdmin: user.isAdmin, isModerator: isModerator(user) }
      : null,
    demoMailbox: demoMailboxOpen(config),
  };
}

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#120d1c" />
        {/* A precedence makes React write the stylesheet before the scripts' modulepreloads: on
            HTTP/1.1 the render-blocking CSS no longer waits behind them for a connection. */}
        <link rel="stylesheet" href={stylesheet} precedence="site" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col bg-ink text-parchment">
        {children}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

const Toaster = lazy(() => import("./components/ui/sonner.tsx").then((module) => ({ default: module.Toaster })));

/** The Toaster, loaded with the first toast (app/components/toast.ts). */
function ToasterOnDemand() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => onToastRequested(() => setWanted(true)), []);
  return wanted ? (
    <Suspense>
      <Toaster />
    </Suspense>
  ) : null;
}

/** Header, page, footer — or, when the root loader itself failed, the page alone. */
function Shell({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<RootData>("root");
  useLiveCreditsStream(data?.viewer?.id);
  // The play screen fills the window: its story scrolls between a fixed header and composer.
  const fullScreen = useLocation().pathname.startsWith("/play/");
  if (!data) return <main className="flex-1">{children}</main>;
  return (
    <>
      <a href="#main" className="sr-only z-50 rounded-full bg-gold px-4 py-2 text-ink focus:not-sr-only focus:fixed focus:top-3 focus:left-3">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="flex-1 pt-16">
        {children}
      </main>
      {fullScreen ? null : <SiteFooter />}
      <ToasterOnDemand />
    </>
  );
}

export default function App() {
  return (
    <Shell>
      <Outlet />
    </Shell>
  );
}

/** The sentence of a request the server refused on purpose (app/http/: a NUL in the address, say). */
function refusalOf(error: unknown): string | undefined {
  if (!isRouteErrorResponse(error) || error.status >= 500) return undefined;
  const body: unknown = error.data;
  return typeof body === "object" && body !== null && "error" in body && typeof body.error === "string" ? body.error : undefined;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <Shell>
        <NotFoundPage />
      </Shell>
    );
  }
  const refusal = refusalOf(error);
  const home = (
    <Button asChild variant={refusal ? "default" : "outline"}>
      <Link to="/">Return to Home</Link>
    </Button>
  );
  return (
    <Shell>
      <StatusPage
        code={isRouteErrorResponse(error) ? String(error.status) : undefined}
        title={refusal ? "We could not accept this request" : "Something went wrong"}
        actions={
          // The same request would be refused again: trying again is offered only for a failure of ours.
          refusal ? (
            home
          ) : (
            <>
              <Button onClick={() => window.location.reload()}>Try again</Button>
              {home}
            </>
          )
        }
      >
        <p>{refusal ?? "An unexpected error interrupted this page. We have logged it and will look into it."}</p>
      </StatusPage>
    </Shell>
  );
}
