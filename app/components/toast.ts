import type { ExternalToast } from "sonner";

/**
 * Toasts without sonner on a first visit: most visitors never see one, so its code and its
 * Toaster load with the first toast (docs/decisions/010). The toast waits for the Toaster to
 * mount, because sonner drops toasts created while nothing listens.
 */

let sonner: Promise<typeof import("sonner")> | undefined;
let toasterMounted: Promise<void> | undefined;
let markToasterMounted: () => void = () => {};
let requested = false;
const requestListeners = new Set<() => void>();

function show(kind: "success" | "error", message: string, options?: ExternalToast) {
  sonner ??= import("sonner");
  toasterMounted ??= new Promise((resolve) => (markToasterMounted = resolve));
  if (!requested) {
    requested = true;
    for (const listener of requestListeners) listener();
  }
  void Promise.all([sonner, toasterMounted]).then(([{ toast: sonnerToast }]) => sonnerToast[kind](message, options));
}

export const toast = {
  success: (message: string, options?: ExternalToast) => show("success", message, options),
  error: (message: string, options?: ExternalToast) => show("error", message, options),
};

/** Calls `listener` once a toast has been asked for (at once if one already was); returns the unsubscribe. */
export function onToastRequested(listener: () => void) {
  if (requested) listener();
  requestListeners.add(listener);
  return () => void requestListeners.delete(listener);
}

/** The Toaster is listening: toasts waiting for it are shown. */
export function toasterIsMounted() {
  markToasterMounted();
}
