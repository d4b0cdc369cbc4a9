import { Toaster as Sonner, type ToasterProps } from "sonner";

export function Toaster(props: ToasterProps) {
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
