import type { ComponentProps } from "react";
import { cn } from "#app/lib/utils.ts";

export const fieldClassName =
  "w-full rounded-lg border border-ink-line bg-ink px-3.5 py-2.5 text-[15px] text-parchment placeholder:text-parchment-dim/70 transition-colors focus-visible:border-gold focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-gold/40 disabled:opacity-60 aria-[invalid=true]:border-danger";

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(fieldClassName, "h-11", className)} {...props} />;
}

export function Textarea({ className, ...props }: ComponentProps<"textarea">) {
  return <textarea className={cn(fieldClassName, "min-h-20 resize-y leading-relaxed", className)} {...props} />;
}
