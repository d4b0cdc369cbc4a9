import { Slot } from "@radix-ui/react-slot";
import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "#app/lib/utils.ts";

const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 whitespace-nowrap rounded-full font-medium transition-colors duration-150 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-[1.15em] [&_svg]:shrink-0 [&_svg]:stroke-[1.75]",
  {
    variants: {
      variant: {
        default: "bg-gold text-ink hover:bg-[#e5c07a] active:bg-gold-deep",
        outline: "border border-gold/70 text-gold hover:bg-gold/10 active:bg-gold/20",
        secondary: "bg-ink-raised text-parchment border border-ink-line hover:border-gold/50",
        ghost: "text-parchment-dim hover:text-parchment hover:bg-ink-raised",
        destructive: "bg-danger text-ink hover:bg-[#ea8a86]",
        link: "text-gold underline-offset-4 hover:underline rounded-sm px-0",
      },
      size: {
        default: "h-10 px-5 text-sm",
        sm: "h-8 px-3.5 text-sm",
        lg: "h-12 px-7 text-base",
        icon: "size-10",
      },
    },
    defaultVariants: { variant: "default", size: "default" },
  },
);

export interface ButtonProps extends ComponentProps<"button">, VariantProps<typeof buttonVariants> {
  /** Render the child element (a Link, an anchor) with the button's look. */
  asChild?: boolean;
}

export function Button({ className, variant, size, asChild = false, ...props }: ButtonProps) {
  const Component = asChild ? Slot : "button";
  return <Component className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}

/**
 * Buttons side by side; on a phone, where they would wrap to ragged widths, a stack of full-width
 * buttons instead.
 */
export function ButtonGroup({ className, ...props }: ComponentProps<"div">) {
  return <div className={cn("grid gap-3 sm:flex sm:flex-wrap", className)} {...props} />;
}

export { buttonVariants };
