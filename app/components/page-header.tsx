import type { ReactNode } from "react";
import { cn } from "#app/lib/utils.ts";

/** The top of a content page: an optional eyebrow, the page's one h1, a lead paragraph. */
export function PageHeader({
  eyebrow,
  title,
  description,
  children,
  className,
}: {
  eyebrow?: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <header className={cn("border-b border-ink-line bg-gradient-to-b from-plum/15 to-ink", className)}>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6 sm:py-20">
        {eyebrow ? <div className="mb-4 text-sm font-semibold tracking-wider text-gold uppercase">{eyebrow}</div> : null}
        <h1 className="max-w-3xl text-4xl text-parchment sm:text-6xl">{title}</h1>
        {description ? <p className="mt-5 max-w-2xl text-lg text-parchment-dim">{description}</p> : null}
        {children}
      </div>
    </header>
  );
}

/** A section heading with an optional lead, used down every page. */
export function SectionHeading({
  title,
  description,
  id,
  className,
}: {
  title: ReactNode;
  description?: ReactNode;
  id?: string;
  className?: string;
}) {
  return (
    <div className={cn("mb-8", className)}>
      <h2 id={id} className="scroll-mt-24 text-3xl text-parchment sm:text-4xl">
        {title}
      </h2>
      {description ? <p className="mt-3 max-w-2xl text-parchment-dim">{description}</p> : null}
    </div>
  );
}

const SECTION_TONES = {
  plain: "",
  ruled: "border-t border-ink-line",
  shaded: "border-t border-ink-line bg-ink-raised/30",
} as const;

/**
 * One band of a content page: the tone runs the full width, the heading and content keep to the
 * page's column. The heading's id is `{id}-heading`, which labels the section.
 */
export function PageSection({
  id,
  title,
  description,
  tone = "plain",
  children,
}: {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  tone?: keyof typeof SECTION_TONES;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${id}-heading`} className={SECTION_TONES[tone] || undefined}>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <SectionHeading id={`${id}-heading`} title={title} description={description} />
        {children}
      </div>
    </section>
  );
}
