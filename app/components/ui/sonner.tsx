import { useEffect } from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";
import { toasterIsMounted } from "#app/components/toast.ts";

export function Toaster(props: ToasterProps) {
  // Sonner subscribes in its own effect, which React runs before this one.
  useEffect(toasterIsMounted, []);
  return (
    <Sonner
      theme="dark"
      position="top-center"
      richColors
      closeButton
      toastOptions={{
        classNames: {
          toast: "!bg-ink-raised !border-ink-line !text-parchment",
          description: "!text-parchment-dim",
        },
      }}
      {...props}
    />
  );
}
