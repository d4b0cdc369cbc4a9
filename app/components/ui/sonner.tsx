import { useEffect, useSyncExternalStore } from "react";
import { Toaster as Sonner, type ToasterProps } from "sonner";
import { TOAST_ROOM, toasterIsMounted } from "#app/components/toast.ts";

function onPhoneChange(listener: () => void) {
  const query = window.matchMedia(TOAST_ROOM.phone);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}

/** A phone's width, as sonner lays toasts out for one (full width). */
function usePhoneWidth() {
  return useSyncExternalStore(
    onPhoneChange,
    () => window.matchMedia(TOAST_ROOM.phone).matches,
    () => false,
  );
}

export function Toaster(props: ToasterProps) {
  // Sonner subscribes in its own effect, which React runs before this one.
  useEffect(toasterIsMounted, []);
  // Where they cover nothing (toast.ts's TOAST_ROOM): at the top below the header, or on a phone at
  // the bottom, where a thumb is and the header's title and balance are not.
  const phone = usePhoneWidth();
  return (
    <Sonner
      theme="dark"
      position={phone ? "bottom-center" : "top-center"}
      offset={{ top: `var(${TOAST_ROOM.top}, 5rem)` }}
      mobileOffset={{ bottom: `var(${TOAST_ROOM.bottom}, 1rem)` }}
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
