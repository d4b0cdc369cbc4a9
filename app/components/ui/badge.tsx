import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "#app/lib/utils.ts";

const badgeVariants = cva("inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap [&_svg]:size-3.5", {
  variants: {
    variant: {
      default: "bg-gold text-ink",
      outline: "border border-ink-line text-parchment-dim",
      plum: "bg-plum text-parchment",
      beginner: "bg-beginner text-ink",
      intermediate: "bg-intermediate text-ink",
      "intermediate-detail": "bg-intermediate-detail text-ink",
      advanced: "bg-advanced text-ink",
    },
  },
  defaultVariants: { variant: "default" },
});

export interface BadgeProps extends ComponentProps<"span">, VariantProps<typeof badgeVariants> {}

export function Badge({ className, variant, ...props }: BadgeProps) {
  return <span className={cn(badgeVariants({ variant }), className)} {...props} />;
}
