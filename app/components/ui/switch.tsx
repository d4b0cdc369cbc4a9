import * as SwitchPrimitive from "@radix-ui/react-switch";
import type { ComponentProps } from "react";
import { cn } from "#app/lib/utils.ts";

export function Switch({ className, ...props }: ComponentProps<typeof SwitchPrimitive.Root>) {
  return (
    <SwitchPrimitive.Root
      className={cn(
        "inline-flex h-6 w-11 shrink-0 items-center rounded-full border border-ink-line bg-ink-line transition-colors data-[state=checked]:border-gold data-[state=checked]:bg-gold disabled:opacity-50",
        className,
      )}
      {...props}
    >
      <SwitchPrimitive.Thumb className="block size-5 translate-x-0.5 rounded-full bg-parchment shadow transition-transform data-[state=checked]:translate-x-[1.3rem] data-[state=checked]:bg-ink" />
    </SwitchPrimitive.Root>
  );
}
