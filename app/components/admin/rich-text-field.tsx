import { Eye, PencilLine } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Textarea } from "#app/components/ui/input.tsx";
import { wordCountHint } from "#app/lib/writing-hints.ts";
import { cn } from "#app/lib/utils.ts";
import { controlProps, Field, HintText, type TextFieldProps } from "./form-controls.tsx";

// The renderer (Markdown, HTML parser, sanitiser) is most of the panel's weight: fetched on the first preview.
const Markdown = lazy(() => import("#app/components/markdown.tsx").then((module) => ({ default: module.Markdown })));

/**
 * Markdown or HTML for the public pages: written here, previewed with the very renderer (and
 * sanitiser) the public pages use, with a live word count against the SPEC's target.
 */
export function RichTextField({
  id,
  label,
  value,
  onChange,
  error,
  wordTarget,
  rows = 12,
  required,
  placeholder,
}: TextFieldProps & {
  wordTarget: number;
  rows?: number;
  required?: boolean;
}) {
  const [mode, setMode] = useState<"write" | "preview">("write");
  const modeButton = (target: "write" | "preview") =>
    cn(
      "inline-flex h-7 items-center gap-1.5 rounded-full px-3 text-xs font-medium transition-colors [&_svg]:size-3.5",
      mode === target ? "bg-ink-line text-parchment" : "text-parchment-dim hover:text-parchment",
    );

  return (
    <Field id={id} label={label} required={required} error={error} hint={<HintText hint={wordCountHint(value, wordTarget)} />}>
      <div className="overflow-hidden rounded-lg border border-ink-line bg-ink focus-within:border-gold">
        <div className="flex items-center justify-between gap-2 border-b border-ink-line px-2 py-1.5">
          <div role="group" aria-label={`${label} view`} className="flex gap-1">
            <button type="button" className={modeButton("write")} aria-pressed={mode === "write"} onClick={() => setMode("write")}>
              <PencilLine aria-hidden />
              Write
            </button>
            <button type="button" className={modeButton("preview")} aria-pressed={mode === "preview"} onClick={() => setMode("preview")}>
              <Eye aria-hidden />
              Preview
            </button>
          </div>
          <span className="hidden text-xs text-parchment-dim sm:inline">Markdown or HTML</span>
        </div>
        {mode === "write" ? (
          <Textarea
            {...controlProps(id, error)}
            rows={rows}
            value={value}
            placeholder={placeholder}
            onChange={(event) => onChange(event.target.value)}
            className="rounded-none border-0 font-mono text-sm focus-visible:ring-0"
          />
        ) : (
          <div data-testid={`${id}-preview`} className="max-h-[28rem] min-h-40 overflow-y-auto px-4 py-3">
            {value.trim() ? (
              <Suspense fallback={<p className="text-sm text-parchment-dim">Loading preview…</p>}>
                <Markdown className="text-base [&>:first-child]:mt-0" images="site">
                  {value}
                </Markdown>
              </Suspense>
            ) : (
              <p className="text-sm text-parchment-dim">Nothing to preview yet.</p>
            )}
          </div>
        )}
      </div>
    </Field>
  );
}
