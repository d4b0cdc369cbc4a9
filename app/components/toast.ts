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

/**
 * Where toasts sit, so they cover neither a page's header nor its controls: on a wide screen at
 * the top, below `--toast-top`; on a phone at the bottom, above `--toast-bottom` (ui/sonner.tsx
 * reads them). By default that is below the site's header and at the foot of the window.
 */
export const TOAST_ROOM = { top: "--toast-top", bottom: "--toast-bottom", phone: "(max-width: 600px)" } as const;

const TOAST_MARGIN_PX = 8;

/**
 * Places toasts over `element` (the play screen's story) as long as it is on the page, so they
 * cover neither the header above it (the title, the balance) nor the composer below it. Returns
 * how to stop.
 */
export function placeToastsOver(element: HTMLElement): () => void {
  const root = document.documentElement.style;
  const place = () => {
    const box = element.getBoundingClientRect();
    root.setProperty(TOAST_ROOM.top, `${Math.round(box.top) + TOAST_MARGIN_PX}px`);
    root.setProperty(TOAST_ROOM.bottom, `${Math.round(window.innerHeight - box.bottom) + TOAST_MARGIN_PX}px`);
  };
  place();
  const observer = new ResizeObserver(place);
  observer.observe(element);
  window.addEventListener("resize", place);
  return () => {
    observer.disconnect();
    window.removeEventListener("resize", place);
    root.removeProperty(TOAST_ROOM.top);
    root.removeProperty(TOAST_ROOM.bottom);
  };
}
