import { API_KEY_HEADER, API_KEY_MESSAGES, type ApiKey } from "@sd/contracts";
import { KeyRound, Plus } from "lucide-react";
import { useState } from "react";
import { Button } from "../ui/button";
import { ApiKeysTable } from "./ApiKeysTable";
import { CreateKeyDialog, CREATE_KEY } from "./CreateKeyDialog";
import { DeleteKeyDialog } from "./DeleteKeyDialog";
import { SettingsSection } from "./SettingsSection";
import { SpendLimitDialog } from "./SpendLimitDialog";

interface ApiKeysSectionProps {
  userId: string;
  keys: readonly ApiKey[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
}

function TableSkeleton() {
  return (
    <div role="status" aria-label="Loading API keys" className="space-y-2">
      <div className="h-10 animate-pulse rounded-md bg-slate-200" />
      <div className="h-14 animate-pulse rounded-md bg-slate-100" />
      <div className="h-14 animate-pulse rounded-md bg-slate-100" />
    </div>
  );
}

/** API keys: the table with each key's actions, the empty state and the 'Create Key' dialog. */
export function ApiKeysSection({ userId, keys, loading, failed, onRetry }: ApiKeysSectionProps) {
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const [limiting, setLimiting] = useState<ApiKey | null>(null);
  return (
    <SettingsSection
      title="API keys"
      description={
        <>
          Your programs call the API with a key in the <code className="font-mono">{API_KEY_HEADER}</code> header. A deactivated or deleted key stops working at once. Give a
          key a monthly spend limit to stop its decisions once they cost that much.
        </>
      }
      action={
        <Button onClick={() => setCreating(true)}>
          <Plus className="size-4" aria-hidden />
          {CREATE_KEY}
        </Button>
      }
    >
      {keys && keys.length > 0 ? (
        <ApiKeysTable userId={userId} keys={keys} onDelete={setDeleting} onSetLimit={setLimiting} />
      ) : keys ? (
        <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
          <KeyRound className="mx-auto size-8 text-slate-400" aria-hidden />
          <p className="mt-3 text-slate-700">{API_KEY_MESSAGES.emptyState}</p>
        </div>
      ) : failed ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <p>{API_KEY_MESSAGES.fetchFailed}</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : loading ? (
        <TableSkeleton />
      ) : null}
      <CreateKeyDialog userId={userId} open={creating} onOpenChange={setCreating} />
      <DeleteKeyDialog userId={userId} apiKey={deleting} onClose={() => setDeleting(null)} />
      <SpendLimitDialog userId={userId} apiKey={limiting} onClose={() => setLimiting(null)} />
    </SettingsSection>
  );
}
