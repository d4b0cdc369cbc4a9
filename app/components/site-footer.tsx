import { Mail } from "lucide-react";
import { Link } from "react-router";
import { COPYRIGHT_YEAR } from "#app/lib/constants.ts";
import { NAV_LINKS, POPULAR_GAMES } from "#app/lib/site.ts";
import { BrandMark } from "./brand-mark.tsx";
import { useRootData } from "./use-root-data.ts";

const footerLink = "text-sm text-parchment-dim transition-colors hover:text-gold";

export function SiteFooter() {
  const { site } = useRootData();
  return (
    <footer className="border-t border-ink-line bg-ink">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-2 lg:grid-cols-4">
        <div className="space-y-4">
          <BrandMark name={site.name} />
          <p className="max-w-xs text-sm text-parchment-dim">
            Step into the role of an empress, a cultivator or a rising star. An AI Game Master narrates every turn of a story only you can write.
          </p>
        </div>
        <nav aria-label="Quick links">
          <h2 className="mb-3 font-sans text-sm font-semibold tracking-wider text-parchment uppercase">Quick Links</h2>
          <ul className="space-y-2">
            {NAV_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className={footerLink}>
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/blog" className={footerLink}>
                Blog
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Popular games">
          <h2 className="mb-3 font-sans text-sm font-semibold tracking-wider text-parchment uppercase">Popular Games</h2>
          <ul className="space-y-2">
            {POPULAR_GAMES.map((game) => (
              <li key={game.slug}>
                <Link to={`/game/${game.slug}`} className={footerLink}>
                  {game.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className="mb-3 font-sans text-sm font-semibold tracking-wider text-parchment uppercase">Contact</h2>
          <a href={`mailto:${site.supportEmail}`} className={`${footerLink} inline-flex items-center gap-2 break-all`}>
            <Mail className="size-4 shrink-0" strokeWidth={1.75} aria-hidden />
            {site.supportEmail}
          </a>
          <p className="mt-3 text-sm text-parchment-dim">We reply typically within 24 hours.</p>
        </div>
      </div>
      <div className="border-t border-ink-line">
        <div className="mx-auto flex max-w-7xl flex-col items-center justify-between gap-3 px-4 py-6 text-sm text-parchment-dim sm:flex-row sm:px-6">
          <p>
            © {COPYRIGHT_YEAR} {site.name}. All rights reserved.
          </p>
          <div className="flex gap-5">
            <Link to="/privacy" className={footerLink}>
              Privacy
            </Link>
            <Link to="/terms" className={footerLink}>
              Terms
            </Link>
            <Link to="/rules" className={footerLink}>
              Content rules
            </Link>
          </div>
        </div>
      </div>
    </footer>
  );
}
