import { useEffect, useState } from "react";
import { Dialog, DialogContent, DialogDescription, DialogTitle } from "#app/components/ui/dialog.tsx";
import { manifestTokens, type ContextCall, type ContextManifest, type ContextSection, type ContextView } from "#app/lib/context-manifest.ts";
import { rollLine } from "#app/lib/stat-checks.ts";

/**
 * What the Game Master sees (docs/decisions/062, 066): the parts of the context one reply was
 * written from, in the order the model read them, each with its tokens and share, and what the call
 * used and cost; a reply continued shows each call (the reply, then each Continue) in turn. Read
 * each time it opens from GET …/replies/{id}/versions/{v}/context: a Continue adds a call.
 */

export function contextViewPath(storyId: string, replyId: number, version: number) {
  return `/api/stories/${storyId}/replies/${replyId}/versions/${version}/context`;
}

const whole = new Intl.NumberFormat("en-US");
const percent = new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 });

function range(span: { from: number; to: number }) {
  return span.from === span.to ? `exchange ${whole.format(span.from)}` : `exchanges ${whole.format(span.from)}–${whole.format(span.to)}`;
}

/** A section's name, and what it says besides its size. */
function describe(section: ContextSection, view: ContextView): { name: string; detail?: string } {
  switch (section.kind) {
    case "instructions":
      return { name: "Game instructions" };
    case "world":
      return { name: `World: ${section.title}` };
    case "lore": {
      const book = section.source === "game" ? "World lore" : "Your lore";
      const fired =
        section.placement === "always"
          ? "always on"
          : `fired by “${section.key ?? ""}” on ${(section.words ?? []).map((word) => `“${word}”`).join(", ")} in ${section.placement === "message" ? "your message" : "earlier exchanges"}`;
      return { name: `${book}: ${section.title}`, detail: fired };
    }
    case "story_so_far":
      return { name: "Story so far" };
    case "pinned_facts":
      return { name: "Pinned facts" };
    case "history": {
      const kept = [section.opening ? "the opening" : null, section.kept ? range(section.kept) : null].filter(Boolean).join(" and ");
      const parts = [`Kept: ${kept || "none"}`, section.leftOut ? `left out for room: ${range(section.leftOut)}` : null];
      return { name: "Exchanges", detail: parts.filter(Boolean).join("; ") };
    }
    case "state":
      return { name: "The state" };
    case "author_note":
      return { name: "Author's note" };
    case "check":
      return { name: "Check", detail: view.check ? rollLine(view.check) : undefined };
    case "message":
      return { name: "Your message" };
  }
}

function money(cost: number | null, currency: string | null) {
  if (cost === null) return "no price";
  return new Intl.NumberFormat("en-US", { style: "currency", currency: currency ?? "USD", maximumFractionDigits: 6 }).format(cost);
}

/** How a call that did not store its text ended, said after its kind. */
const OUTCOMES: Record<string, string> = {
  interrupted: "interrupted",
  failed: "failed",
  empty: "wrote nothing",
  cancelled: "stopped",
  not_stored: "not stored",
};

/**
 * Each call's heading when a version was written by more than one, or by a Continue alone (its
 * reply's own call was not recorded: a seeded opening, or one written before calls were).
 */
function callNames(calls: readonly { call: ContextCall }[]) {
  let continues = 0;
  return calls.map(({ call }) => {
    const name = call.kind === "continue" ? `Continue ${(continues += 1)}` : "The reply";
    const outcome = OUTCOMES[call.outcome];
    return outcome ? `${name} (${outcome})` : name;
  });
}

/** The dialog's content once read: one reply's parts, or each call's under its own heading. */
export function ContextCalls({ view }: { view: ContextView }) {
  const [only, ...more] = view.calls;
  if (only && more.length === 0 && only.call.kind !== "continue") return <ContextSections view={view} manifest={only.manifest} call={only.call} />;
  const names = callNames(view.calls);
  return (
    <div className="space-y-6">
      {view.calls.map(({ manifest, call }, index) => (
        <section key={index} aria-labelledby={`context-call-${index}`} className="space-y-2">
          <h3 id={`context-call-${index}`} className="font-sans text-sm font-semibold tracking-wide text-gold uppercase">
            {names[index]}
          </h3>
          <ContextSections view={view} manifest={manifest} call={call} />
        </section>
      ))}
    </div>
  );
}

function ContextSections({ view, manifest, call }: { view: ContextView; manifest: ContextManifest; call: ContextCall }) {
  const total = manifestTokens(manifest);
  const cachedShare = call.inputTokens > 0 ? call.cachedInputTokens / call.inputTokens : 0;
  return (
    <div className="space-y-4 text-sm">
      <ol className="space-y-2" aria-label="Parts of the context, in order">
        {manifest.sections.map((section, index) => {
          const { name, detail } = describe(section, view);
          const share = total > 0 ? section.tokens / total : 0;
          return (
            <li key={index} className="rounded-lg border border-ink-line px-3 py-2">
              <div className="flex items-baseline justify-between gap-3">
                <span className="font-medium text-parchment [overflow-wrap:anywhere]">{name}</span>
                <span className="shrink-0 text-xs text-parchment-dim tabular-nums">
                  {whole.format(section.tokens)} tokens · {percent.format(share)}
                </span>
              </div>
              <div className="mt-1 h-1 rounded-full bg-ink-line" aria-hidden>
                <div className="h-1 rounded-full bg-gold" style={{ width: `${Math.max(1, share * 100)}%` }} />
              </div>
              {detail ? <p className="mt-1 text-xs text-parchment-dim [overflow-wrap:anywhere]">{detail}</p> : null}
              {section.kind === "instructions" && view.instructions !== null ? (
                <details className="mt-1 text-xs text-parchment-dim">
                  <summary className="cursor-pointer">Show the instructions (admins only)</summary>
                  <pre className="mt-1 max-h-48 overflow-auto whitespace-pre-wrap">{view.instructions}</pre>
                </details>
              ) : null}
            </li>
          );
        })}
      </ol>
      {manifest.loreCut.length > 0 ? (
        <p className="text-xs text-parchment-dim">Lore left out for room: {manifest.loreCut.map((entry) => entry.title).join(", ")}</p>
      ) : null}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 rounded-lg border border-ink-line px-3 py-2 text-xs">
        <dt className="text-parchment-dim">Model</dt>
        <dd className="[overflow-wrap:anywhere]">{call.model}</dd>
        <dt className="text-parchment-dim">Sent</dt>
        <dd className="tabular-nums">
          {whole.format(call.inputTokens)} tokens{call.estimated ? " (counted by the site)" : ""}, {percent.format(cachedShare)} cached
        </dd>
        <dt className="text-parchment-dim">Written</dt>
        <dd className="tabular-nums">{whole.format(call.outputTokens)} tokens</dd>
        <dt className="text-parchment-dim">Cost</dt>
        <dd className="tabular-nums">{money(call.cost, call.currency)}</dd>
      </dl>
    </div>
  );
}

type Loaded = { path: string } & ({ view: ContextView } | { error: string });

export function ContextViewerDialog({
  open,
  onOpenChange,
  path,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** contextViewPath of the reply's version. */
  path: string;
}) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const shown = loaded?.path === path ? loaded : null;
  // Read again each time it opens (what was read last stays until the answer comes): a Continue
  // since may have added a call to the version.
  useEffect(() => {
    if (!open) return;
    const reading = new AbortController();
    void (async () => {
      try {
        const response = await fetch(path, { headers: { Accept: "application/json" }, signal: reading.signal });
        const body = (await response.json().catch(() => null)) as (ContextView & { error?: unknown }) | null;
        if (response.ok && body) setLoaded({ path, view: body });
        else setLoaded({ path, error: typeof body?.error === "string" ? body.error : "Please try again." });
      } catch {
        if (!reading.signal.aborted) setLoaded({ path, error: "The server could not be reached. Please try again." });
      }
    })();
    return () => reading.abort();
  }, [open, path]);

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto sm:max-w-lg">
        <DialogTitle>What the Game Master saw</DialogTitle>
        <DialogDescription>Every part of the context this reply was written from, in the order the model read it.</DialogDescription>
        {shown === null ? (
          <p className="text-sm text-parchment-dim" role="status">
            Loading…
          </p>
        ) : "error" in shown ? (
          <p className="text-sm text-parchment" role="alert">
            {shown.error}
          </p>
        ) : (
          <ContextCalls view={shown.view} />
        )}
      </DialogContent>
    </Dialog>
  );
}
