import { Check, Copy } from "lucide-react";
import { useState } from "react";
import { Button } from "../ui/button";
import { Field, Input } from "../ui/field";
import { copySecret } from "./clipboard";

/**
 * A secret the server sent this once (an API key, a webhook signing secret): read-only, selected on
 * focus, with a copy button that says when it worked. The caller words the toasts.
 */
export function CopyableSecret({
  label,
  value,
  copyLabel,
  onCopied,
  onCopyFailed,
}: {
  label: string;
  value: string;
  copyLabel: string;
  onCopied: () => void;
  onCopyFailed: () => void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    const outcome = await copySecret(navigator.clipboard, Promise.resolve(value));
    if (outcome !== "copied") return onCopyFailed();
    onCopied();
    setCopied(true);
  };
  return (
    <Field label={label}>
      {({ id }) => (
        <div className="flex gap-2">
          <Input id={id} readOnly value={value} className="min-w-0 font-mono text-xs" onFocus={(event) => event.currentTarget.select()} />
          <Button variant="secondary" onClick={() => void copy()} aria-label={copyLabel} title={copyLabel}>
            {copied ? <Check className="size-4 text-emerald-600" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          </Button>
        </div>
      )}
    </Field>
  );
}
