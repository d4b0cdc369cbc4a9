import { Ellipsis } from "lucide-react";
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { cn } from "#app/lib/utils.ts";

/**
 * The play header's overflow menu on a phone: a More button and a menu of named actions. The
 * browser's popover does the rest, before any script has run too: Escape or a tap elsewhere
 * closes it, and the focus goes back to More. The arrow keys, Home and End move between the
 * items; choosing one closes the menu first, so what it opens (a dialog) gives the focus back to
 * More in turn.
 */

const ITEM =
  "flex w-full items-center gap-2.5 rounded-md px-3 py-2.5 text-left text-sm text-parchment hover:bg-gold/10 focus-visible:bg-gold/10 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-gold disabled:pointer-events-none disabled:opacity-50 [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-parchment-dim";

const GAP_PX = 4;

/** The items the arrow keys move between: those shown at this width, and not disabled. */
function itemsOf(menu: HTMLElement) {
  return [...menu.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])')].filter((item) => item.checkVisibility());
}

export function MoreMenu({ label = "More", className, children }: { label?: string; className?: string; children: ReactNode }) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  // Opened: under its button, right edges aligned, and the first item focused.
  useEffect(() => {
    const element = menu.current;
    if (!element) return;
    const toggled = (event: Event) => {
      const trigger = button.current;
      if ((event as ToggleEvent).newState !== "open" || !trigger) return;
      const box = trigger.getBoundingClientRect();
      element.style.top = `${box.bottom + GAP_PX}px`;
      element.style.right = `${document.documentElement.clientWidth - box.right}px`;
      itemsOf(element)[0]?.focus();
    };
    element.addEventListener("toggle", toggled);
    return () => element.removeEventListener("toggle", toggled);
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const element = menu.current;
    if (!element) return;
    if (event.key === "Tab") {
      element.hidePopover();
      return;
    }
    const items = itemsOf(element);
    const at = items.indexOf(document.activeElement as HTMLElement);
    const next = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: items.length - 1 }[event.key];
    if (next === undefined || items.length === 0) return;
    event.preventDefault();
    items[(next + items.length) % items.length]?.focus();
  }

  return (
    <>
      <Button ref={button} variant="ghost" size="sm" popoverTarget={id} aria-haspopup="menu" className={cn("px-2.5", className)}>
        <Ellipsis aria-hidden />
        {label}
      </Button>
      <div
        ref={menu}
        id={id}
        popover="auto"
        role="menu"
        aria-label={label}
        onKeyDown={onKeyDown}
        // An item chosen closes the menu before it acts.
        onClickCapture={(event) => {
          if ((event.target as HTMLElement).closest('[role="menuitem"]')) menu.current?.hidePopover();
        }}
        className="fixed inset-auto top-28 right-3 m-0 w-56 rounded-lg border border-ink-line bg-ink-raised p-1 text-parchment shadow-lg shadow-ink"
      >
        {children}
      </div>
    </>
  );
}

/** An item of the menu: a button, or with `href` a link (a download, say). */
export function MoreMenuItem({
  icon,
  children,
  onSelect,
  href,
  download,
  disabled,
  className,
}: {
  icon: ReactNode;
  children: ReactNode;
  onSelect?: () => void;
  href?: string;
  download?: boolean;
  disabled?: boolean;
  /** Where it is shown only at some widths (its tool is in the header at the others). */
  className?: string;
}) {
  if (href) {
    return (
      <a role="menuitem" href={href} download={download} className={cn(ITEM, className)}>
        {icon}
        {children}
      </a>
    );
  }
  return (
    <button type="button" role="menuitem" onClick={onSelect} disabled={disabled} className={cn(ITEM, className)}>
      {icon}
      {children}
    </button>
  );
}
