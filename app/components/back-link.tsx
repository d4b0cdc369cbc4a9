import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";

export function BackLink({ to, children }: { to: string; children: string }) {
  return (
    <Link to={to} className="inline-flex items-center gap-2 rounded-sm text-sm font-medium text-parchment-dim transition-colors hover:text-gold">
      <ArrowLeft className="size-4" strokeWidth={1.75} aria-hidden />
      {children}
    </Link>
  );
}
