import { ChevronRight } from "lucide-react";
import { Link } from "react-router";
import type { Crumb } from "#app/lib/seo.ts";

/** The visible trail matching the page's BreadcrumbList; the last crumb is the current page. */
export function Breadcrumbs({ crumbs }: { crumbs: readonly Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-parchment-dim">
      <ol className="flex flex-wrap items-center gap-1.5">
        {crumbs.map((crumb, index) => {
          const last = index === crumbs.length - 1;
          return (
            <li key={crumb.path} className="inline-flex items-center gap-1.5">
              {last ? (
                <span aria-current="page" className="text-parchment">
                  {crumb.name}
                </span>
              ) : (
                <>
                  <Link to={crumb.path} className="rounded-sm hover:text-gold">
                    {crumb.name}
                  </Link>
                  <ChevronRight className="size-3.5" strokeWidth={1.75} aria-hidden />
                </>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
