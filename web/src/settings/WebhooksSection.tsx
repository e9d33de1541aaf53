import { WEBHOOK_LIMITS, WEBHOOK_MESSAGES, type WebhookEndpoint } from "@sd/contracts";
import { ChevronDown, Plus, Send, Webhook } from "lucide-react";
import { useState } from "react";
import { formatLocalTime } from "../history/format";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { ConfirmDeleteDialog } from "../ui/confirm-delete-dialog";
import { toast } from "../ui/toast";
import { DeliveryLog } from "../webhooks/DeliveryLog";
import { endpointState } from "../webhooks/format";
import { useDeleteWebhook, useSendTest, useUpdateWebhook, useWebhooks } from "../webhooks/useWebhooks";
import { AddEndpointDialog, apiErrorText, EditEndpointDialog, RotateSecretDialog } from "../webhooks/WebhookDialogs";
import { SettingsSection } from "./SettingsSection";

/** The endpoint's on/off switch (PATCH active); switching on also clears a disabled notice. */
function ActiveSwitch({ endpoint, pending, onChange }: { endpoint: WebhookEndpoint; pending: boolean; onChange: (active: boolean) => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={endpoint.active}
      aria-label={`Active: ${endpoint.url}`}
      disabled={pending}
      onClick={() => onChange(!endpoint.active)}
      className="inline-flex shrink-0 items-center gap-2 text-sm text-slate-700 disabled:opacity-50"
    >
      <span className={cn("relative inline-flex h-5 w-9 items-center rounded-full transition-colors", endpoint.active ? "bg-brand-600" : "bg-slate-300")}>
        <span className={cn("inline-block size-4 rounded-full bg-white shadow transition-transform", endpoint.active ? "translate-x-4" : "translate-x-0.5")} />
      </span>
      {endpoint.active ? "Active" : "Off"}
    </button>
  );
}

type Awaited = { eventId: string; since: number; seen: number };

function EndpointRow({ userId, endpoint, onEdit, onRotate, onDelete }: {
  userId: string;
  endpoint: WebhookEndpoint;
  onEdit: () => void;
  onRotate: () => void;
  onDelete: () => void;
}) {
  const update = useUpdateWebhook(userId);
  const test = useSendTest(userId, endpoint.id);
  const [logOpen, setLogOpen] = useState(false);
  const [awaiting, setAwaiting] = useState<Awaited | null>(null);
  const state = endpointState(endpoint);
  const logId = `log-${endpoint.id}`;

  const setActive = (active: boolean) =>
    update.mutate(
      { id: endpoint.id, change: { active } },
      {
        onSuccess: () => toast.success(active ? "Endpoint switched on" : "Endpoint switched off", endpoint.url),
        onError: (error) => toast.error("Error", apiErrorText(error, WEBHOOK_MESSAGES.saveFailed)),
      },
    );
  const sendTest = () =>
    test.mutate(undefined, {
      onSuccess: (queued) => {
        toast.success("Test event queued", queued.message);
        setAwaiting({ eventId: queued.event_id, since: Date.now(), seen: 0 });
        setLogOpen(true);
      },
      onError: (error) => toast.error("Error", apiErrorText(error, "The test event could not be queued.")),
    });

  return (
    <li className="py-4" data-testid="webhook-endpoint" data-endpoint-id={endpoint.id}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1 space-y-1">
          <p className="font-mono text-sm break-all text-slate-900">{endpoint.url}</p>
          {endpoint.description ? <p className="text-sm break-words text-slate-600">{endpoint.description}</p> : null}
          <p className="flex flex-wrap gap-1.5">
            {endpoint.events.map((event) => (
              <span key={event} className="rounded-md bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-700">
                {event}
              </span>
            ))}
            {endpoint.include_signed_in_decisions ? <span className="rounded-md bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">+ signed-in decisions</span> : null}
          </p>
          {endpoint.previous_secret_expires_at ? (
            <p className="text-xs text-slate-500">
              Previous secret signs until <time dateTime={endpoint.previous_secret_expires_at}>{formatLocalTime(endpoint.previous_secret_expires_at)}</time>
            </p>
          ) : null}
        </div>
        <ActiveSwitch endpoint={endpoint} pending={update.isPending} onChange={setActive} />
      </div>

      {state.kind === "disabled" ? (
        <div role="alert" className="mt-3 flex flex-col gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900 sm:flex-row sm:items-center sm:justify-between">
          <p className="min-w-0 break-words">{state.reason}</p>
          <Button size="sm" variant="secondary" className="shrink-0 self-start sm:self-auto" onClick={() => setActive(true)} disabled={update.isPending}>
            Re-enable
          </Button>
        </div>
      ) : state.kind === "failing" ? (
        <p className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Deliveries have failed since <time dateTime={state.since}>{formatLocalTime(state.since)}</time>. After 24 hours of failures the endpoint is switched off.
        </p>
      ) : null}

      <div className="mt-3 flex flex-wrap gap-2">
        <Button size="sm" variant="secondary" onClick={onEdit} aria-label={`Edit ${endpoint.url}`}>
          Edit
        </Button>
        <Button size="sm" variant="secondary" onClick={sendTest} disabled={test.isPending} aria-busy={test.isPending} aria-label={`Send test event to ${endpoint.url}`}>
          <Send className="size-4" aria-hidden />
          Send test event
        </Button>
        <Button size="sm" variant="secondary" onClick={onRotate} aria-label={`Rotate secret of ${endpoint.url}`}>
          Rotate secret
        </Button>
        <Button size="sm" variant="ghost" aria-expanded={logOpen} aria-controls={logId} onClick={() => setLogOpen((open) => !open)}>
          <ChevronDown className={cn("size-4 transition-transform", logOpen && "rotate-180")} aria-hidden />
          Delivery log
        </Button>
        <Button size="sm" variant="ghost" className="text-red-700 hover:bg-red-50" onClick={onDelete} aria-label={`Delete ${endpoint.url}`}>
          Delete
        </Button>
      </div>
      <div id={logId}>
        {logOpen ? <DeliveryLog userId={userId} endpointId={endpoint.id} awaiting={awaiting} onAwait={(eventId, seen) => setAwaiting({ eventId, since: Date.now(), seen })} /> : null}
      </div>
    </li>
  );
}

function DeleteEndpointDialog({ userId, endpoint, onClose }: { userId: string; endpoint: WebhookEndpoint | null; onClose: () => void }) {
  const remove = useDeleteWebhook(userId);
  return (
    <ConfirmDeleteDialog
      open={endpoint !== null}
      title="Delete endpoint"
      description={endpoint ? `Deliveries to ${endpoint.url} stop, and its delivery log is deleted.` : undefined}
      pending={remove.isPending}
      onCancel={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={() => {
        if (!endpoint) return;
        remove.mutate(endpoint.id, {
          onSuccess: () => {
            toast.success(WEBHOOK_MESSAGES.deleted, endpoint.url);
            onClose();
          },
          onError: (error) => toast.error("Error", apiErrorText(error, WEBHOOK_MESSAGES.deleteFailed)),
          onSettled: () => remove.reset(),
        });
      }}
    />
  );
}

/** Webhooks on /settings: the user's endpoints, each with its status, actions and delivery log. */
export function WebhooksSection({ userId }: { userId: string }) {
  const endpoints = useWebhooks(userId);
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<WebhookEndpoint | null>(null);
  const [rotating, setRotating] = useState<WebhookEndpoint | null>(null);
  const [deleting, setDeleting] = useState<WebhookEndpoint | null>(null);
  const full = (endpoints.data?.length ?? 0) >= WEBHOOK_LIMITS.maxPerUser;
  return (
    <SettingsSection
      title="Webhooks"
      description="Your server is sent a signed POST (Standard Webhooks) when a decision or a batch completes."
      action={
        <Button onClick={() => setAdding(true)} disabled={!endpoints.data || full} title={full ? WEBHOOK_MESSAGES.tooMany : undefined}>
          <Plus className="size-4" aria-hidden />
          Add endpoint
        </Button>
      }
    >
      {endpoints.data && endpoints.data.length > 0 ? (
        <ul className="divide-y divide-slate-200" aria-label="Your webhook endpoints">
          {endpoints.data.map((endpoint) => (
            <EndpointRow
              key={endpoint.id}
              userId={userId}
              endpoint={endpoint}
              onEdit={() => setEditing(endpoint)}
              onRotate={() => setRotating(endpoint)}
              onDelete={() => setDeleting(endpoint)}
            />
          ))}
        </ul>
      ) : endpoints.data ? (
        <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
          <Webhook className="mx-auto size-8 text-slate-400" aria-hidden />
          <p className="mt-3 text-slate-700">{WEBHOOK_MESSAGES.emptyState}</p>
        </div>
      ) : endpoints.isError ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <p>{apiErrorText(endpoints.error, WEBHOOK_MESSAGES.fetchFailed)}</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void endpoints.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <div role="status" aria-label="Loading webhook endpoints" className="h-14 animate-pulse rounded-md bg-slate-100" />
      )}
      <AddEndpointDialog userId={userId} open={adding} onOpenChange={setAdding} />
      <EditEndpointDialog userId={userId} endpoint={editing} onClose={() => setEditing(null)} />
      <RotateSecretDialog userId={userId} endpoint={rotating} onClose={() => setRotating(null)} />
      <DeleteEndpointDialog userId={userId} endpoint={deleting} onClose={() => setDeleting(null)} />
    </SettingsSection>
  );
}
