import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import type { Crumb } from "#app/lib/seo.ts";
import { BackLink } from "./back-link.tsx";

/**
 * The visible trail matching the page's BreadcrumbList; the last crumb is the current page. Each
 * chevron leads the crumb it points to, so a trail that wraps on a phone starts its next line
 * with "› Strategy Guide" rather than ending the first with a dangling chevron.
 */
export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-parchment-dim">
      <ol className="flex flex-wrap items-center gap-1.5">
        {crumbs.map((crumb, index) => (
          <li key={crumb.path} className="inline-flex items-center gap-1.5">
            {index > 0 ? <ChevronRight className="size-3.5 shrink-0" strokeWidth={1.75} aria-hidden /> : null}
            {index === crumbs.length - 1 ? (
              <span aria-current="page" className="text-parchment">
                {crumb.name}
              </span>
            ) : (
              <Link to={crumb.path} className="rounded-sm hover:text-gold">
                {crumb.name}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/**
 * A page's way back beside its breadcrumb trail. On a phone the trail would repeat the back link
 * and the page's own heading on lines of their own, so only the back link shows there.
 */
export function BackLinkWithBreadcrumbs({ back, crumbs }: { back: { to: string; label: string }; crumbs: readonly Crumb[] }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <BackLink to={back.to}>{back.label}</BackLink>
      <div className="hidden sm:block">
        <Breadcrumbs crumbs={crumbs} />
      </div>
    </div>
  );
}
