import type { ApiKey } from "@sd/contracts";
import { useEffect, useState, type FormEvent } from "react";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field, Input } from "../ui/field";
import { checkSpendLimit, formatKeyMonth } from "./format";
import { useSetSpendLimit } from "./useSettingsQueries";

export const SPEND_LIMIT_TITLE = "Monthly spend limit";

/**
 * Sets, changes or removes a key's monthly spend limit. The field starts at the current limit;
 * what the key has spent this month is shown beside it, so a limit below it is a deliberate stop.
 */
export function SpendLimitDialog({ userId, apiKey, onClose }: { userId: string; apiKey: ApiKey | null; onClose: () => void }) {
  const save = useSetSpendLimit(userId);
  const [amount, setAmount] = useState("");
  const [error, setError] = useState<string | null>(null);
  const current = apiKey?.monthly_spend_limit_usd ?? null;

  // Each opening starts from the key's limit as it is now.
  useEffect(() => {
    setAmount(current === null ? "" : String(current));
    setError(null);
  }, [apiKey?.id, current]);

  const close = () => {
    if (save.isPending) return;
    save.reset();
    onClose();
  };
  const send = (limitUsd: number | null) => {
    if (apiKey) save.mutate({ id: apiKey.id, limitUsd }, { onSuccess: onClose, onSettled: () => save.reset() });
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkSpendLimit(amount);
    if (!checked.ok) return setError(checked.error);
    setError(null);
    send(checked.limitUsd);
  };

  return (
    <Dialog
      open={apiKey !== null}
      onOpenChange={(open) => (open ? undefined : close())}
      title={SPEND_LIMIT_TITLE}
      description={
        apiKey
          ? `Once "${apiKey.name}" has spent this much in a calendar month (UTC), new decisions with it are refused until the limit is raised or the month ends. Decisions already running still finish.`
          : undefined
      }
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <Field label="Limit (US dollars)" error={error} hint={apiKey ? `Spent so far: ${formatKeyMonth(apiKey)}.` : undefined}>
          {({ id, describedBy, invalid }) => (
            <Input
              id={id}
              inputMode="decimal"
              autoComplete="off"
              placeholder="e.g. 5.00"
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              aria-describedby={describedBy}
              aria-invalid={invalid}
            />
          )}
        </Field>
        <div className="flex flex-wrap justify-end gap-2">
          {current !== null ? (
            <Button type="button" variant="secondary" className="mr-auto" disabled={save.isPending} onClick={() => send(null)}>
              Remove limit
            </Button>
          ) : null}
          <Button type="button" variant="secondary" onClick={close} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={save.isPending} aria-busy={save.isPending}>
            {save.isPending ? "Saving..." : current === null ? "Set limit" : "Save limit"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
