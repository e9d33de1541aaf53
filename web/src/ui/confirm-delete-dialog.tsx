import type { ReactNode } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";

/** Asks before a deletion: Cancel, or Delete (busy while it runs; Cancel cannot close it meanwhile). */
export function ConfirmDeleteDialog({
  open,
  title,
  description,
  pending,
  onCancel,
  onConfirm,
}: {
  open: boolean;
  title: string;
  description: ReactNode;
  pending: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={(next) => (next || pending ? undefined : onCancel())} title={title} description={description}>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button variant="danger" disabled={pending || !open} aria-busy={pending} onClick={onConfirm}>
          {pending ? "Deleting..." : "Delete"}
        </Button>
      </div>
    </Dialog>
  );
}
