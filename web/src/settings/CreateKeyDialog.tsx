import { API_KEY_MESSAGES, DEFAULT_WORKSPACE, type ApiKey } from "@sd/contracts";
import { useState, type FormEvent } from "react";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field, Input } from "../ui/field";
import { toast } from "../ui/toast";
import { CopyableSecret } from "./CopyableSecret";
import { checkNewKey } from "./format";
import { useCreateApiKey, toastError } from "./useSettingsQueries";

export const CREATE_KEY = "Create Key";

type Errors = { name?: string; workspace?: string };

/** The new key's value, sent this once by the server: shown to copy before the dialog closes. */
function NewKeyValue({ apiKey, onDone }: { apiKey: ApiKey & { keyvalue: string }; onDone: () => void }) {
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-600">
        Copy your key now and keep it somewhere safe: anyone who has it can call the API as you. Send it in the <code className="font-mono">SD-API-KEY</code>{" "}
        header.
      </p>
      <CopyableSecret
        label={`Key "${apiKey.name}"`}
        value={apiKey.keyvalue}
        copyLabel="Copy new key"
        onCopied={() => toast.success(API_KEY_MESSAGES.copiedTitle, API_KEY_MESSAGES.copied)}
        onCopyFailed={() => toastError(API_KEY_MESSAGES.copyFailed)}
      />
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

/**
 * The 'Create Key' dialog: Key Name (trimmed, required) and
 * Workspace ('Default'); Create Key reads 'Creating...' while the key is made. Closing it forgets
 * everything typed, and the new key's value with it.
 */
export function CreateKeyDialog({ userId, open, onOpenChange }: { userId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const [name, setName] = useState("");
  const [workspace, setWorkspace] = useState(DEFAULT_WORKSPACE);
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreateApiKey(userId);
  const created = create.data?.keyvalue ? { ...create.data, keyvalue: create.data.keyvalue } : null;

  const close = (next: boolean) => {
    // While the key is being made the dialog stays open, so its answer (and value) is not lost.
    if (!next && create.isPending) return;
    onOpenChange(next);
    if (!next) {
      setName("");
      setWorkspace(DEFAULT_WORKSPACE);
      setErrors({});
      create.reset();
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkNewKey(name, workspace);
    if (!checked.ok) {
      setErrors({ [checked.field]: checked.error });
      return;
    }
    setErrors({});
    create.mutate(checked.body);
  };

  return (
    <Dialog open={open} onOpenChange={close} title={created ? "API key created" : CREATE_KEY} description={created ? undefined : "A key lets your code call the Smart Decision API."}>
      {created ? (
        <NewKeyValue apiKey={created} onDone={() => close(false)} />
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4" aria-label={CREATE_KEY}>
          <Field label="Key Name" error={errors.name}>
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                value={name}
                autoFocus
                maxLength={100}
                placeholder="e.g. Production server"
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(event) => {
                  setName(event.target.value);
                  setErrors((current) => ({ ...current, name: undefined }));
                }}
              />
            )}
          </Field>
          <Field label="Workspace" error={errors.workspace}>
            {({ id, describedBy, invalid }) => (
              <Input
                id={id}
                value={workspace}
                maxLength={100}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onChange={(event) => {
                  setWorkspace(event.target.value);
                  setErrors((current) => ({ ...current, workspace: undefined }));
                }}
              />
            )}
          </Field>
          <div className="flex flex-wrap justify-end gap-2 pt-2">
            <Button variant="secondary" onClick={() => close(false)} disabled={create.isPending}>
              Cancel
            </Button>
            <Button type="submit" disabled={create.isPending} aria-busy={create.isPending}>
              {create.isPending ? "Creating..." : CREATE_KEY}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
