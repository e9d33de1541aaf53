import type { ApiKey } from "@sd/contracts";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { useDeleteApiKey } from "./useSettingsQueries";

/** Asks before deleting a key: a deleted key stops working at once, for every program that uses it. */
export function DeleteKeyDialog({ userId, apiKey, onClose }: { userId: string; apiKey: ApiKey | null; onClose: () => void }) {
  const remove = useDeleteApiKey(userId);
  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };
  return (
    <Dialog
      open={apiKey !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title="Delete API key"
      description={apiKey ? `"${apiKey.name}" stops working at once: every call made with it is refused. This cannot be undone.` : undefined}
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={close} disabled={remove.isPending}>
          Cancel
        </Button>
        <Button
          variant="danger"
          disabled={remove.isPending || apiKey === null}
          aria-busy={remove.isPending}
          onClick={() => {
            if (apiKey) remove.mutate(apiKey.id, { onSuccess: onClose, onSettled: () => remove.reset() });
          }}
        >
          {remove.isPending ? "Deleting..." : "Delete"}
        </Button>
      </div>
    </Dialog>
  );
}
