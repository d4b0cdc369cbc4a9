import { createContext, useCallback, useContext, useEffect, useId, useMemo, useState, type ReactNode } from "react";
import { useBlocker } from "react-router";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";

/** The question asked before edits that were not saved are thrown away. */
export const UNSAVED_CHANGES_TEXTS = {
  title: "Leave without saving?",
  description: "You have changes that are not saved yet. If you leave now, they are lost.",
  stay: "Keep editing",
  leave: "Discard changes",
} as const;

interface UnsavedChanges {
  setDirty: (form: string, dirty: boolean) => void;
  confirm: (leave: () => void) => void;
}

const UnsavedChangesContext = createContext<UnsavedChanges | null>(null);

/**
 * Guards the admin panel's forms: while any of them holds edits that were not saved, moving to
 * another page or tab of the panel (a router navigation, blocked with useBlocker), closing or
 * reloading the browser tab (beforeunload), and a form's own Cancel, Back or Escape ask first.
 * React Router allows one blocker per router, so it lives here, once, and forms report to it.
 */
export function UnsavedChangesGuard({ children }: { children: ReactNode }) {
  const [dirtyForms, setDirtyForms] = useState<ReadonlySet<string>>(() => new Set());
  const [pendingLeave, setPendingLeave] = useState<{ leave: () => void } | null>(null);
  const dirty = dirtyForms.size > 0;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  const setDirty = useCallback((form: string, formDirty: boolean) => {
    setDirtyForms((current) => {
      if (current.has(form) === formDirty) return current;
      const next = new Set(current);
      if (formDirty) next.add(form);
      else next.delete(form);
      return next;
    });
  }, []);
  const confirm = useCallback((leave: () => void) => setPendingLeave({ leave }), []);
  const value = useMemo(() => ({ setDirty, confirm }), [setDirty, confirm]);

  const asking = blocker.state === "blocked" || pendingLeave !== null;
  function stay() {
    if (blocker.state === "blocked") blocker.reset();
    setPendingLeave(null);
  }
  function leave() {
    if (blocker.state === "blocked") blocker.proceed();
    pendingLeave?.leave();
    setPendingLeave(null);
  }

  return (
    <UnsavedChangesContext value={value}>
      {children}
      <AlertDialog open={asking} onOpenChange={(open) => !open && stay()}>
        <AlertDialogContent>
          <AlertDialogTitle>{UNSAVED_CHANGES_TEXTS.title}</AlertDialogTitle>
          <AlertDialogDescription>{UNSAVED_CHANGES_TEXTS.description}</AlertDialogDescription>
          <AlertDialogFooter>
            <AlertDialogCancel>{UNSAVED_CHANGES_TEXTS.stay}</AlertDialogCancel>
            <Button variant="destructive" onClick={leave}>
              {UNSAVED_CHANGES_TEXTS.leave}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </UnsavedChangesContext>
  );
}

/**
 * Reports whether a form holds unsaved edits to the panel's guard, and answers a function that
 * runs `leave` at once when there is nothing to lose, or after the admin agreed to discard.
 */
export function useUnsavedChanges(dirty: boolean): (leave: () => void) => void {
  const guard = useContext(UnsavedChangesContext);
  const form = useId();
  useEffect(() => {
    guard?.setDirty(form, dirty);
    return () => guard?.setDirty(form, false);
  }, [guard, form, dirty]);
  return useCallback((leave: () => void) => (dirty && guard ? guard.confirm(leave) : leave()), [dirty, guard]);
}
