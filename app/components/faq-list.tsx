/** Questions and answers as disclosure widgets: readable without JavaScript, indexable, keyboard friendly. */
export function FaqList({ items, className }: { items: readonly { question: string; answer: string }[]; className?: string }) {
  return (
    <div className={`divide-y divide-ink-line rounded-[var(--radius-card)] border border-ink-line ${className ?? "bg-ink-raised"}`}>
      {items.map((item) => (
        <details key={item.question} className="group px-6 py-5">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 rounded-sm font-semibold text-parchment [&::-webkit-details-marker]:hidden">
            <h3 className="font-sans text-base">{item.question}</h3>
            <span aria-hidden className="text-xl text-gold transition-transform group-open:rotate-45">
              +
            </span>
          </summary>
          <p className="mt-3 text-parchment-dim">{item.answer}</p>
        </details>
      ))}
    </div>
  );
}
