import { useState } from "react";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
} from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { deleteConfirmation } from "#app/lib/admin-texts.ts";

/**
 * SPEC's delete confirmation for a game, content record or guide. It stays open, its button
 * disabled, until the delete has finished.
 */
export function ConfirmDelete({
  kind,
  title,
  open,
  onOpenChange,
  onConfirm,
}: {
  kind: "game" | "content" | "guide" | "lore entry";
  /** The item's title, quoted in the question. */
  title: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConfirm: () => Promise<void>;
}) {
  const [deleting, setDeleting] = useState(false);
  return (
    <AlertDialog open={open} onOpenChange={(next) => !deleting && onOpenChange(next)}>
      <AlertDialogContent>
        <AlertDialogTitle>Delete {kind}?</AlertDialogTitle>
        <AlertDialogDescription>{deleteConfirmation(title)}</AlertDialogDescription>
        <AlertDialogFooter>
          <AlertDialogCancel disabled={deleting}>Cancel</AlertDialogCancel>
          <Button
            variant="destructive"
            disabled={deleting}
            onClick={async () => {
              setDeleting(true);
              try {
                await onConfirm();
              } finally {
                setDeleting(false);
              }
            }}
          >
            {deleting ? "Deleting..." : "Delete"}
          </Button>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
