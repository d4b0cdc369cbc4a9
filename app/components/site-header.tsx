import { Coins, LogOut, Menu, ShieldCheck, X } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Form, Link, NavLink, useLocation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { formatCredits, NAV_LINKS, type ViewerInfo } from "#app/lib/site.ts";
import { cn } from "#app/lib/utils.ts";
import { BrandMark } from "./brand-mark.tsx";
import { useRootData } from "./use-root-data.ts";
import { useViewerCredits } from "./use-viewer-credits.ts";

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  cn(
    "whitespace-nowrap rounded-full px-3 py-1.5 text-sm font-medium transition-colors",
    isActive ? "text-gold" : "text-parchment-dim hover:text-parchment",
  );

export function CreditsBadge({ credits, className }: { credits: number; className?: string }) {
  return (
    <Link
      to="/credits"
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border whitespace-nowrap border-gold/50 bg-gold/10 px-3 py-1 text-sm font-semibold text-gold hover:bg-gold/20",
        className,
      )}
      data-testid="credits-balance"
    >
      <Coins className="size-4" strokeWidth={1.75} aria-hidden />
      {formatCredits(credits)}
    </Link>
  );
}

function SignOutButton({ className }: { className?: string }) {
  return (
    <Form method="post" action="/sign-out" className={className}>
      <Button type="submit" variant="ghost" size="sm">
        <LogOut aria-hidden />
        Sign Out
      </Button>
    </Form>
  );
}

function ViewerControls({ viewer, credits }: { viewer: ViewerInfo | null; credits: number }) {
  if (!viewer) {
    return (
      <Button asChild size="sm">
        <Link to="/auth">Sign In</Link>
      </Button>
    );
  }
  return (
    <div className="flex items-center gap-3">
      <CreditsBadge credits={credits} />
      {/* An admin's or a moderator's extra link leaves no room for the email below 1536 px. */}
      <span
        className={cn("hidden max-w-36 truncate text-sm text-parchment-dim", viewer.isAdmin || viewer.isModerator ? "2xl:inline" : "xl:inline")}
        title={viewer.email}
      >
        {viewer.email}
      </span>
      <SignOutButton />
    </div>
  );
}

export function SiteHeader() {
  const { site, viewer } = useRootData();
  const credits = useViewerCredits() ?? 0;
  const { pathname } = useLocation();
  // The menu belongs to the page it was opened on, so following a link closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const menuButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!menuOpen) return;
    function closeOnEscape(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      setMenuOpenOn(null);
      // Focus may have been on a link that is now gone; the toggle is where the menu came from.
      menuButton.current?.focus();
    }
    document.addEventListener("keydown", closeOnEscape);
    return () => document.removeEventListener("keydown", closeOnEscape);
  }, [menuOpen]);

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-ink-line bg-ink/90 backdrop-blur supports-[backdrop-filter]:bg-ink/75">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <BrandMark name={site.name} compact={viewer !== null} />
        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          {NAV_LINKS.map((link) => (
            <NavLink key={link.to} to={link.to} end={link.to === "/"} className={navLinkClass}>
              {link.label}
            </NavLink>
          ))}
          {viewer ? (
            <>
              <NavLink to="/stories" className={navLinkClass}>
                My Stories
              </NavLink>
              <NavLink to="/create" className={navLinkClass}>
                Create
              </NavLink>
            </>
          ) : null}
          {viewer?.isModerator ? (
            // Beside Admin the bar is full below 2xl: an admin finds Moderation in the menu there, or on /admin's header.
            <NavLink to="/moderation" className={(state) => cn(navLinkClass(state), viewer.isAdmin && "hidden 2xl:inline")}>
              Moderation
            </NavLink>
          ) : null}
          {viewer?.isAdmin ? (
            <NavLink to="/admin" className={navLinkClass}>
              <span className="inline-flex items-center gap-1">
                <ShieldCheck className="size-4" aria-hidden />
                Admin
              </span>
            </NavLink>
          ) : null}
        </nav>
        <div className="hidden lg:block">
          <ViewerControls viewer={viewer} credits={credits} />
        </div>
        <div className="flex items-center gap-2 lg:hidden">
          {viewer ? <CreditsBadge credits={credits} className="px-2.5 text-xs" /> : null}
          <Button
            ref={menuButton}
            variant="ghost"
            size="icon"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpenOn(menuOpen ? null : pathname)}
          >
            {menuOpen ? <X /> : <Menu />}
          </Button>
        </div>
      </div>
      {menuOpen ? (
        <nav id="mobile-menu" aria-label="Mobile" className="animate-slide-up border-t border-ink-line bg-ink px-4 pb-5 lg:hidden">
          <ul className="flex flex-col py-2">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end={link.to === "/"}
                  className={({ isActive }) =>
                    cn("block rounded-lg px-3 py-3 text-base", isActive ? "text-gold" : "text-parchment hover:bg-ink-raised")
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
            {viewer ? (
              <li>
                <NavLink
                  to="/stories"
                  className={({ isActive }) =>
                    cn("block rounded-lg px-3 py-3 text-base", isActive ? "text-gold" : "text-parchment hover:bg-ink-raised")
                  }
                >
                  My Stories
                </NavLink>
              </li>
            ) : null}
            {viewer ? (
              <li>
                <NavLink
                  to="/create"
                  className={({ isActive }) =>
                    cn("block rounded-lg px-3 py-3 text-base", isActive ? "text-gold" : "text-parchment hover:bg-ink-raised")
                  }
                >
                  Create
                </NavLink>
              </li>
            ) : null}
            {viewer?.isModerator ? (
              <li>
                <NavLink
                  to="/moderation"
                  className={({ isActive }) =>
                    cn("block rounded-lg px-3 py-3 text-base", isActive ? "text-gold" : "text-parchment hover:bg-ink-raised")
                  }
                >
                  Moderation
                </NavLink>
              </li>
            ) : null}
          </ul>
          <div className="border-t border-ink-line pt-4">
            {viewer ? (
              <div className="flex items-center justify-between gap-3">
                <span className="truncate text-sm text-parchment-dim">{viewer.email}</span>
                <SignOutButton />
              </div>
            ) : (
              <Button asChild className="w-full">
                <Link to="/auth">Sign In</Link>
              </Button>
            )}
          </div>
        </nav>
      ) : null}
    </header>
  );
}
