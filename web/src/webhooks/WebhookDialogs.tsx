import { WEBHOOK_EVENT_TYPES, WEBHOOK_LIMITS, type WebhookEndpoint, type WebhookEndpointWithSecret, type WebhookEventType } from "@sd/contracts";
import { useState, type FormEvent } from "react";
import { ApiError } from "../api/client";
import { CopyableSecret } from "../settings/CopyableSecret";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field, Input } from "../ui/field";
import { toast } from "../ui/toast";
import { EVENT_LABELS, toggleEvent } from "./format";
import { useCreateWebhook, useRotateSecret, useUpdateWebhook } from "./useWebhooks";

/** The API's own words for a refusal; a generic text for anything else (a network failure). */
export const apiErrorText = (error: unknown, fallback: string): string => (error instanceof ApiError ? error.message : fallback);

/** A signing secret the server sent this once: shown to copy, with a plain warning that it will not be shown again. */
export function SecretValue({ secret, note, onDone }: { secret: string; note: string; onDone: () => void }) {
  return (
    <div className="space-y-4">
      <p role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        <strong>Copy this secret now: you will not see it again.</strong> {note}
      </p>
      <CopyableSecret
        label="Signing secret"
        value={secret}
        copyLabel="Copy signing secret"
        onCopied={() => toast.success("Copied", "The signing secret is on your clipboard.")}
        onCopyFailed={() => toast.error("Error", "Could not copy the secret: select it and copy it yourself.")}
      />
      <div className="flex justify-end">
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

interface FormValues {
  url: string;
  events: WebhookEventType[];
  description: string;
  include_signed_in_decisions: boolean;
}

const blank: FormValues = { url: "", events: [...WEBHOOK_EVENT_TYPES], description: "", include_signed_in_decisions: false };
const valuesOf = (endpoint: WebhookEndpoint): FormValues => ({
  url: endpoint.url,
  events: [...endpoint.events],
  description: endpoint.description,
  include_signed_in_decisions: endpoint.include_signed_in_decisions,
});

/** The fields of an endpoint, for adding one and for editing it. */
function EndpointForm({ initial, submitLabel, pending, error, onSubmit, onCancel }: {
  initial: FormValues;
  submitLabel: string;
  pending: boolean;
  error: string | null;
  onSubmit: (values: FormValues) => void;
  onCancel: () => void;
}) {
  const [values, setValues] = useState(initial);
  const change = (patch: Partial<FormValues>) => setValues((current) => ({ ...current, ...patch }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(values);
  };
  return (
    <form onSubmit={submit} noValidate className="space-y-4" aria-label={submitLabel}>
      <Field label="Endpoint URL" hint="Where deliveries are POSTed: an https address of your server.">
        {({ id, describedBy }) => (
          <Input
            id={id}
            type="url"
            inputMode="url"
            autoFocus
            value={values.url}
            maxLength={WEBHOOK_LIMITS.maxUrlLength}
            placeholder="https://example.com/webhooks/smart-decision"
            aria-describedby={describedBy}
            onChange={(event) => change({ url: event.target.value })}
          />
        )}
      </Field>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-700">Events</legend>
        {WEBHOOK_EVENT_TYPES.map((event) => (
          <label key={event} className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              className="mt-0.5 size-4 shrink-0"
              checked={values.events.includes(event)}
              onChange={(e) => change({ events: toggleEvent(values.events, event, e.target.checked) })}
            />
            <span className="min-w-0">
              <span className="font-mono text-slate-900">{EVENT_LABELS[event].label}</span>
              <span className="block text-slate-600">{EVENT_LABELS[event].hint}</span>
            </span>
          </label>
        ))}
        <label className="flex items-start gap-2 border-t border-slate-200 pt-2 text-sm">
          <input
            type="checkbox"
            className="mt-0.5 size-4 shrink-0"
            checked={values.include_signed_in_decisions}
            onChange={(e) => change({ include_signed_in_decisions: e.target.checked })}
          />
          <span className="min-w-0">
            <span className="text-slate-900">Also my signed-in decisions</span>
            <span className="block text-slate-600">decision.completed also for decisions you make on this website, not only with your API keys.</span>
          </span>
        </label>
      </fieldset>
      <Field label="Description (optional)">
        {({ id }) => (
          <Input id={id} value={values.description} maxLength={WEBHOOK_LIMITS.maxDescriptionLength} placeholder="e.g. Production ticket router" onChange={(event) => change({ description: event.target.value })} />
        )}
      </Field>
      {error ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2 pt-2">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || values.url.trim() === ""} aria-busy={pending}>
          {pending ? "Saving..." : submitLabel}
        </Button>
      </div>
    </form>
  );
}

const CREATED_NOTE = "Your server verifies each delivery's webhook-signature header with it (Standard Webhooks).";

/** "Add endpoint": the form, then the new endpoint's signing secret, shown once. Closing forgets both. */
export function AddEndpointDialog({ userId, open, onOpenChange }: { userId: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  const create = useCreateWebhook(userId);
  const created: WebhookEndpointWithSecret | undefined = create.data;
  const close = (next: boolean) => {
    // While the endpoint is being made the dialog stays open, so its secret is not lost.
    if (!next && create.isPending) return;
    onOpenChange(next);
    if (!next) create.reset();
  };
  return (
    <Dialog open={open} onOpenChange={close} title={created ? "Endpoint added" : "Add endpoint"} description={created ? undefined : "Smart Decision POSTs a signed JSON event to this URL."}>
      {created ? (
        <SecretValue secret={created.secret} note={CREATED_NOTE} onDone={() => close(false)} />
      ) : open ? (
        <EndpointForm
          initial={blank}
          submitLabel="Add endpoint"
          pending={create.isPending}
          error={create.isError ? apiErrorText(create.error, "Failed to save the webhook endpoint") : null}
          onSubmit={(values) => create.mutate(values)}
          onCancel={() => close(false)}
        />
      ) : null}
    </Dialog>
  );
}

/** Edit an endpoint's URL, events and description. */
export function EditEndpointDialog({ userId, endpoint, onClose }: { userId: string; endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const update = useUpdateWebhook(userId);
  const close = () => {
    if (update.isPending) return;
    update.reset();
    onClose();
  };
  return (
    <Dialog open={endpoint !== null} onOpenChange={(next) => (next ? undefined : close())} title="Edit endpoint">
      {endpoint ? (
        <EndpointForm
          key={endpoint.id}
          initial={valuesOf(endpoint)}
          submitLabel="Save changes"
          pending={update.isPending}
          error={update.isError ? apiErrorText(update.error, "Failed to save the webhook endpoint") : null}
          onSubmit={(values) =>
            update.mutate(
              { id: endpoint.id, change: values },
              {
                onSuccess: () => {
                  toast.success("Endpoint saved", values.url);
                  update.reset();
                  onClose();
                },
              },
            )
          }
          onCancel={close}
        />
      ) : null}
    </Dialog>
  );
}

/** "Rotate secret": a confirm, then the new secret shown once; the previous one keeps signing for 24 hours. */
export function RotateSecretDialog({ userId, endpoint, onClose }: { userId: string; endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const rotate = useRotateSecret(userId);
  const close = () => {
    if (rotate.isPending) return;
    rotate.reset();
    onClose();
  };
  const rotated = rotate.data;
  return (
    <Dialog
      open={endpoint !== null}
      onOpenChange={(next) => (next ? undefined : close())}
      title={rotated ? "New signing secret" : "Rotate signing secret?"}
      description={rotated ? undefined : "A new secret is made now. The current one keeps signing deliveries, beside the new one, for 24 hours: switch your server over within that time."}
    >
      {rotated ? (
        <SecretValue secret={rotated.secret} note="The previous secret keeps working for 24 hours." onDone={close} />
      ) : (
        <div className="space-y-4">
          {rotate.isError ? (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
              {apiErrorText(rotate.error, "The secret could not be rotated. Please try again.")}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={close} disabled={rotate.isPending}>
              Cancel
            </Button>
            <Button disabled={rotate.isPending || endpoint === null} aria-busy={rotate.isPending} onClick={() => endpoint && rotate.mutate(endpoint.id)}>
              {rotate.isPending ? "Rotating..." : "Rotate secret"}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
