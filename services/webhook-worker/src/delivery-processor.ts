import { randomUUID } from "node:crypto";
import { WEBHOOK_MESSAGES } from "@sd/contracts";
import type { WebhookAttemptPlan, WebhookDeliveryJob } from "@sd/queue";
import type { Store, WebhookEndpointRecord } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { WebhookUrlError, checkWebhookUrl, isSuccess, nextRetryDelayMs, signWebhook, type DeliveryResult, type WebhookDeliverer } from "@sd/webhooks";

/** An endpoint failing this long (since its first failed attempt, with no success since) is switched off. */
export const DISABLE_AFTER_FAILING_MS = 24 * 3600_000;

export interface DeliveryProcessorDeps {
  store: Pick<Store, "webhookEndpoints" | "webhookDeliveries">;
  deliverer: WebhookDeliverer;
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_DELAY_SCALE. */
  retryScale: number;
  logger: Logger;
  now?: () => Date;
}

/** The secrets that still sign: the current one and any rotated-out one inside its overlap window. */
function signingSecrets(endpoint: WebhookEndpointRecord, at: Date): string[] {
  return endpoint.secrets.filter((s) => s.expires_at === null || s.expires_at.getTime() > at.getTime()).map((s) => s.secret);
}

/** The reason shown on a disabled endpoint: what the last attempt got. */
function describeResult(result: DeliveryResult): string {
  if (result.error !== null) return result.error;
  return `the endpoint answered HTTP ${result.status_code}`;
}

/**
 * One attempt of one delivery job: the endpoint as it is now (deleted or switched off: dropped), its URL checked again
 * (the rule or DNS may have changed since creation), signed with its current secrets, posted, logged as one delivery
 * row, and the endpoint's failing streak updated — an endpoint failing for 24 h is disabled. Returns the next attempt's delay.
 */
export function createDeliveryProcessor(deps: DeliveryProcessorDeps): (job: WebhookDeliveryJob) => Promise<WebhookAttemptPlan> {
  const { store, deliverer, logger } = deps;
  const now = deps.now ?? (() => new Date());
  const none: WebhookAttemptPlan = { retryInMs: null };

  return async (job) => {
    const endpoint = await store.webhookEndpoints.findById(job.endpoint_id);
    if (!endpoint || (!endpoint.active && !job.manual)) return none;
    const startedAt = now();
    const secrets = signingSecrets(endpoint, startedAt);
    let result: DeliveryResult;
    if (secrets.length === 0) {
      result = { status_code: null, latency_ms: 0, response_excerpt: null, error: "no signing secret is active", retry_after_ms: null };
    } else {
      try {
        await checkWebhookUrl(endpoint.url, { allowPrivate: deps.allowPrivate });
        const signature = signWebhook({ messageId: job.event_id, timestamp: startedAt, body: job.payload, secrets });
        result = await deliverer.deliver(endpoint.url, job.payload, signature);
      } catch (error) {
        if (!(error instanceof WebhookUrlError)) throw error;
        result = { status_code: null, latency_ms: 0, response_excerpt: null, error: error.message, retry_after_ms: null };
      }
    }
    const ok = result.error === null && isSuccess(result.status_code);
    // A disabled endpoint gets a manual send once, but no retries until it is switched on again.
    const retryInMs = ok || !endpoint.active ? null : nextRetryDelayMs(job.attempt, result, { scale: deps.retryScale });
    const finishedAt = now();
    await store.webhookDeliveries.insert({
      id: randomUUID(),
      endpoint_id: endpoint.id,
      user_id: endpoint.user_id,
      event_id: job.event_id,
      event_type: job.event_type,
      payload: job.payload,
      attempt: job.attempt,
      status_code: result.status_code,
      ok,
      latency_ms: result.latency_ms,
      response_excerpt: result.response_excerpt,
      error: result.error,
      next_attempt_at: retryInMs === null ? null : new Date(finishedAt.getTime() + retryInMs),
      created_at: finishedAt,
    });
    if (!endpoint.active) return none;
    const updated = await store.webhookEndpoints.recordOutcome(endpoint.id, { ok, at: startedAt });
    const failingSince = updated?.failing_since ?? null;
    if (!ok && failingSince !== null && finishedAt.getTime() - failingSince.getTime() > DISABLE_AFTER_FAILING_MS) {
      const reason = WEBHOOK_MESSAGES.disabledAfterFailures(describeResult(result));
      await store.webhookEndpoints.disable(endpoint.id, reason);
      logger.warn({ endpoint_id: endpoint.id, user_id: endpoint.user_id, failing_since: failingSince, reason }, "webhook endpoint disabled");
      return none;
    }
    if (!ok) logger.info({ endpoint_id: endpoint.id, event_id: job.event_id, attempt: job.attempt, error: result.error, status_code: result.status_code, retry_in_ms: retryInMs }, "webhook delivery failed");
    return { retryInMs };
  };
}
