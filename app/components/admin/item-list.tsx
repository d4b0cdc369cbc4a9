import { Pencil, Plus, Trash2 } from "lucide-react";
import { useState, type ReactNode } from "react";
import { toast } from "#app/components/toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { ConfirmDelete } from "./confirm-delete.tsx";
import { EmptyState, LoadFailed } from "./form-controls.tsx";
import { useAdminRequest } from "./use-admin-request.ts";

/**
 * One of the panel's lists in its three states: the server could not read it (`items` null),
 * empty with a button to add the first item, or its cards.
 */
export function AdminItemList<Item>({
  items,
  loadFailedMessage,
  empty,
  className,
  renderItem,
}: {
  items: Item[] | null;
  loadFailedMessage: string;
  empty: { icon: ReactNode; title: string; addLabel?: string; onAdd?: () => void };
  className: string;
  renderItem: (item: Item) => ReactNode;
}) {
  if (items === null) return <LoadFailed message={loadFailedMessage} />;
  if (items.length === 0) {
    return (
      <EmptyState icon={empty.icon} title={empty.title}>
        {empty.addLabel && empty.onAdd ? (
          <Button variant="outline" onClick={empty.onAdd}>
            <Plus aria-hidden />
            {empty.addLabel}
          </Button>
        ) : null}
      </EmptyState>
    );
  }
  return <ul className={className}>{items.map(renderItem)}</ul>;
}

export function EditButton({
  title,
  onEdit,
  id,
  variant = "ghost",
}: {
  title: string;
  onEdit: () => void;
  id?: string;
  variant?: "ghost" | "secondary";
}) {
  return (
    // Not a submit button: a lore entry's Edit sits inside the game editor's form.
    <Button id={id} type="button" variant={variant} size="sm" onClick={onEdit} aria-label={`Edit ${title}`}>
      <Pencil aria-hidden />
      Edit
    </Button>
  );
}

/** Delete, behind SPEC's confirmation; the dialog stays open until the server has answered. */
export function DeleteButton({
  kind,
  title,
  url,
  deletedMessage,
  failedMessage,
  onDeleted,
}: {
  kind: "game" | "content" | "guide" | "lore entry";
  title: string;
  url: string;
  deletedMessage: string;
  failedMessage: string;
  /** For a list read apart from the panel's data, which the delete does not reload. */
  onDeleted?: () => Promise<void>;
}) {
  const [confirming, setConfirming] = useState(false);
  const { send } = useAdminRequest();

  async function remove() {
    const result = await send("DELETE", url);
    if (result.ok) {
      setConfirming(false);
      toast.success(deletedMessage);
      await onDeleted?.();
    } else {
      toast.error(failedMessage, { description: result.error });
    }
  }

  return (
    <>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        className="text-danger hover:text-danger"
        onClick={() => setConfirming(true)}
        aria-label={`Delete ${title}`}
      >
        <Trash2 aria-hidden />
        Delete
      </Button>
      <ConfirmDelete kind={kind} title={title} open={confirming} onOpenChange={setConfirming} onConfirm={remove} />
    </>
  );
}
