import { WEBHOOK_EVENT_TYPES, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from "@sd/contracts";

/** Pure rules of the Webhooks section, unit-tested. */

export const EVENT_LABELS: Record<WebhookEventType, { label: string; hint: string }> = {
  "decision.completed": { label: "decision.completed", hint: "A decision made with one of your API keys is done." },
  "batch.completed": { label: "batch.completed", hint: "A batch has finished (completed or cancelled)." },
};

/** The events in the order the form lists them, the chosen ones only. */
export const orderedEvents = (chosen: readonly WebhookEventType[]): WebhookEventType[] => WEBHOOK_EVENT_TYPES.filter((event) => chosen.includes(event));

/** The events with one switched on or off (kept in the form's order). */
export const toggleEvent = (chosen: readonly WebhookEventType[], event: WebhookEventType, on: boolean): WebhookEventType[] =>
  orderedEvents(on ? [...chosen, event] : chosen.filter((each) => each !== event));

export type EndpointState = { kind: "active" } | { kind: "paused" } | { kind: "failing"; since: string } | { kind: "disabled"; reason: string };

/** What the endpoint's status line says: switched off by the server (with its reason), failing, paused by the user, or active. */
export function endpointState(endpoint: Pick<WebhookEndpoint, "active" | "disabled_reason" | "failing_since">): EndpointState {
  if (endpoint.disabled_reason !== null) return { kind: "disabled", reason: endpoint.disabled_reason };
  if (!endpoint.active) return { kind: "paused" };
  if (endpoint.failing_since !== null) return { kind: "failing", since: endpoint.failing_since };
  return { kind: "active" };
}

/** A delivery's outcome in a few words: the receiver's status, else the error (timeout, refused). */
export function deliveryOutcome(delivery: Pick<WebhookDelivery, "ok" | "status_code" | "error">): string {
  if (delivery.status_code !== null) return delivery.error && !delivery.ok ? `HTTP ${delivery.status_code} · ${delivery.error}` : `HTTP ${delivery.status_code}`;
  return delivery.error ?? (delivery.ok ? "Delivered" : "Failed");
}

/** Latency as people read it: "85 ms", "1.2 s", or "—" when none was measured. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return "—";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}
