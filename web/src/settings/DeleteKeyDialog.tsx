import type { ApiKey } from "@sd/contracts";
import { ConfirmDeleteDialog } from "../ui/confirm-delete-dialog";
import { useDeleteApiKey } from "./useSettingsQueries";

/** Asks before deleting a key: a deleted key stops working at once, for every program that uses it. */
export function DeleteKeyDialog({ userId, apiKey, onClose }: { userId: string; apiKey: ApiKey | null; onClose: () => void }) {
  const remove = useDeleteApiKey(userId);
  return (
    <ConfirmDeleteDialog
      open={apiKey !== null}
      title="Delete API key"
      description={apiKey ? `"${apiKey.name}" stops working at once: every call made with it is refused. This cannot be undone.` : undefined}
      pending={remove.isPending}
      onCancel={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={() => {
        if (apiKey) remove.mutate(apiKey.id, { onSuccess: onClose, onSettled: () => remove.reset() });
      }}
    />
  );
}
