import { WEBHOOK_LIMITS, type WebhookDelivery } from "@sd/contracts";
import { RefreshCw, RotateCcw } from "lucide-react";
import { useState } from "react";
import { formatLocalTime } from "../history/format";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { toast } from "../ui/toast";
import { deliveryOutcome, formatLatency } from "./format";
import { useDeliveries, useResend } from "./useWebhooks";
import { apiErrorText } from "./WebhookDialogs";

/** How long the log keeps asking for a queued event's delivery before leaving it to Refresh. */
const AWAIT_MS = 30_000;

function DeliveryRow({ delivery, resending, onResend }: { delivery: WebhookDelivery; resending: boolean; onResend: () => void }) {
  return (
    <li className="py-3" data-testid="webhook-delivery" data-event-id={delivery.event_id}>
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <div className="min-w-0 space-y-0.5">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
            <span className={cn("rounded-full px-2 py-0.5 text-xs font-semibold", delivery.ok ? "bg-emerald-50 text-emerald-700" : "bg-red-50 text-red-700")}>
              {delivery.ok ? "Delivered" : "Failed"}
            </span>
            <span className="font-mono text-slate-900">{delivery.event_type}</span>
            <span className="break-words text-slate-700" data-testid="delivery-outcome">
              {deliveryOutcome(delivery)}
            </span>
          </p>
          <p className="text-xs text-slate-500">
            <time dateTime={delivery.created_at}>{formatLocalTime(delivery.created_at)}</time>
            {` · ${formatLatency(delivery.latency_ms)} · attempt ${delivery.attempt}`}
            {delivery.next_attempt_at ? (
              <>
                {" · next attempt "}
                <time dateTime={delivery.next_attempt_at}>{formatLocalTime(delivery.next_attempt_at)}</time>
              </>
            ) : null}
          </p>
        </div>
        <Button size="sm" variant="ghost" onClick={onResend} disabled={resending} aria-busy={resending} aria-label={`Resend ${delivery.event_type} of ${formatLocalTime(delivery.created_at)}`}>
          <RotateCcw className="size-4" aria-hidden />
          Resend
        </Button>
      </div>
      {delivery.response_excerpt ? (
        <details className="mt-2 text-sm">
          <summary className="cursor-pointer text-slate-600">Response</summary>
          <pre className="mt-1 max-h-48 overflow-auto rounded-md bg-slate-50 p-2 font-mono text-xs break-all whitespace-pre-wrap text-slate-800">{delivery.response_excerpt}</pre>
        </details>
      ) : null}
    </li>
  );
}

/**
 * One endpoint's delivery log, newest first, with Resend per delivery. After a test event or a
 * resend (`awaiting`: its event id) the log is asked again each second until that event's new
 * attempt is listed.
 */
export function DeliveryLog({ userId, endpointId, awaiting, onAwait }: { userId: string; endpointId: string; awaiting: { eventId: string; since: number; seen: number } | null; onAwait: (eventId: string, seen: number) => void }) {
  const [limit, setLimit] = useState<number>(WEBHOOK_LIMITS.deliveryPageSize);
  const resend = useResend(userId, endpointId);
  // First pass without polling: whether the awaited attempt is listed is known from the data.
  const [waiting, setWaiting] = useState(false);
  const log = useDeliveries(userId, endpointId, limit, true, waiting);
  const deliveries = log.data?.deliveries;
  const attemptsOf = (eventId: string) => deliveries?.filter((delivery) => delivery.event_id === eventId).length ?? 0;
  const stillWaiting = awaiting !== null && Date.now() - awaiting.since < AWAIT_MS && attemptsOf(awaiting.eventId) <= awaiting.seen;
  if (stillWaiting !== waiting) setWaiting(stillWaiting);

  const doResend = (delivery: WebhookDelivery) =>
    resend.mutate(delivery.id, {
      onSuccess: (queued) => {
        toast.success("Queued", queued.message);
        onAwait(queued.event_id, attemptsOf(queued.event_id));
      },
      onError: (error) => toast.error("Error", apiErrorText(error, "The delivery could not be queued again.")),
    });

  return (
    <div className="mt-3 rounded-lg border border-slate-200 p-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h4 className="text-sm font-semibold text-slate-900">Delivery log</h4>
        <Button size="sm" variant="ghost" onClick={() => void log.refetch()} disabled={log.isFetching} aria-label="Refresh the delivery log">
          <RefreshCw className={log.isFetching ? "size-4 animate-spin" : "size-4"} aria-hidden />
          Refresh
        </Button>
      </div>
      {deliveries && deliveries.length > 0 ? (
        <ul className="divide-y divide-slate-200" aria-label="Deliveries">
          {deliveries.map((delivery) => (
            <DeliveryRow key={delivery.id} delivery={delivery} resending={resend.isPending && resend.variables === delivery.id} onResend={() => doResend(delivery)} />
          ))}
        </ul>
      ) : deliveries ? (
        <p className="py-3 text-sm text-slate-600">{stillWaiting ? "Sending..." : "No deliveries yet. Send a test event to try the endpoint."}</p>
      ) : log.isError ? (
        <p role="alert" className="py-3 text-sm text-red-700">
          {apiErrorText(log.error, "Failed to load the delivery log")}
        </p>
      ) : (
        <div role="status" aria-label="Loading deliveries" className="my-2 h-10 animate-pulse rounded-md bg-slate-100" />
      )}
      {log.data && log.data.total > log.data.deliveries.length && limit < WEBHOOK_LIMITS.maxDeliveryPageSize ? (
        <Button size="sm" variant="secondary" className="mt-2" onClick={() => setLimit((current) => Math.min(WEBHOOK_LIMITS.maxDeliveryPageSize, current + WEBHOOK_LIMITS.deliveryPageSize))}>
          {`Show more (${log.data.total - log.data.deliveries.length} more)`}
        </Button>
      ) : null}
    </div>
  );
}
