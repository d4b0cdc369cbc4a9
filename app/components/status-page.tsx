import type { ReactNode } from "react";

/** The full-page message of the not-found page, Access Denied and unexpected errors. */
export function StatusPage({
  code,
  icon,
  title,
  children,
  actions,
}: {
  code?: string;
  /** Shown above the title instead of a code (a success tick, a warning sign). */
  icon?: ReactNode;
  title: string;
  children?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="mx-auto flex min-h-[60dvh] max-w-xl flex-col items-center justify-center px-4 py-20 text-center">
      {code ? <p className="font-display text-7xl font-bold text-gold/80">{code}</p> : null}
      {icon}
      <div aria-hidden className="my-5 h-px w-24 bg-gradient-to-r from-transparent via-gold to-transparent" />
      <h1 className="text-4xl sm:text-5xl">{title}</h1>
      {children ? <div className="mt-4 text-parchment-dim">{children}</div> : null}
      {actions ? <div className="mt-8 flex flex-wrap justify-center gap-3">{actions}</div> : null}
    </section>
  );
}
