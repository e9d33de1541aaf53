import { randomBytes } from "node:crypto";
import { Queue, type Job, type JobsOptions } from "bullmq";
import type { Redis } from "ioredis";
import type { WebhookEventType } from "@sd/contracts";
import { retentionJobOptions } from "./job-retention";
import { createWorker, type WorkerPool } from "./workers";

/** Webhook deliveries have their own queue (keys `<prefix>:webhooks:*`): a slow receiver never holds a vote or aggregate slot. */
export const WEBHOOK_QUEUE = "webhooks";

/** One delivery attempt of one event to one endpoint. */
export interface WebhookDeliveryJob {
  endpoint_id: string;
  /** `evt_…`, stable per event: the `webhook-id` header receivers dedupe on. */
  event_id: string;
  event_type: string;
  /** The exact JSON body, built once at emission so every attempt sends the same bytes. */
  payload: string;
  /** 1 for the first delivery; retries count up. */
  attempt: number;
  /** The id of the chain's first job; retries are `<chain>.a<attempt>`. */
  chain: string;
  /** A test event or a resend the user asked for: sent even to a disabled endpoint, and never disables it. */
  manual: boolean;
}

/** The endpoint fields emission needs; the store's WebhookEndpointRecord satisfies it. */
export interface WebhookTarget {
  id: string;
  user_id: string;
  include_signed_in_decisions: boolean;
}

/** Where emission finds the user's endpoints (the store's `webhookEndpoints`). */
export interface WebhookEndpointDirectory {
  hasActive(userId: string): Promise<boolean>;
  listActiveForUser(userId: string, eventType: WebhookEventType): Promise<WebhookTarget[]>;
}

/** An event to tell the user's endpoints about. */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType;
  user_id: string;
  api_key_id: string | null;
  /** Made on the website while signed in (not with an API key): only endpoints that opted in get it. */
  signed_in: boolean;
  data: unknown;
  /** When it happened (the envelope's `timestamp`); now when absent. */
  occurred_at?: Date;
}

/** A delivery the log holds, as a resend needs it (the store's WebhookDeliveryRecord satisfies it). */
export interface LoggedWebhookDelivery {
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
}

/** Job ids may hold ':' only in BullMQ's own repeat-job form, so the parts are joined with '.'. */
function chainId(endpointId: string, eventId: string, suffix?: string): string {
  return [endpointId, eventId, ...(suffix ? [suffix] : [])].join(".");
}

/** The envelope every delivery carries (Standard Webhooks' recommended shape). */
export function webhookEnvelope(type: string, at: Date, data: unknown): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

/**
 * A job that failed for the infrastructure's sake (the store or Redis away while it ran), not the receiver's:
 * BullMQ runs it again a few times. The receiver's own failures are retried by the schedule instead.
 */
const INFRA_ATTEMPTS = 5;
const INFRA_BACKOFF_MS = 10_000;

function jobOptions(jobId: string, delayMs = 0): JobsOptions {
  return { jobId, delay: delayMs, attempts: INFRA_ATTEMPTS, backoff: { type: "exponential", delay: INFRA_BACKOFF_MS }, ...retentionJobOptions() };
}

/**
 * Puts webhook deliveries on the queue: events fanned out to the owner's endpoints, test events, resends and the
 * delayed next attempt of a failed delivery. Every job id is derived from endpoint and event, so emitting an event
 * twice (an at-least-once rerun of the aggregator) adds nothing while the first job is still kept. A retry is a
 * delayed job in Redis: it survives any process being killed.
 */
export class WebhookDispatch {
  private readonly queue: Queue<WebhookDeliveryJob>;

  constructor(
    connection: Redis,
    prefix: string,
    private readonly endpoints: WebhookEndpointDirectory | null = null,
  ) {
    this.queue = new Queue<WebhookDeliveryJob>(WEBHOOK_QUEUE, { connection, prefix });
    this.queue.on("error", () => undefined);
  }

  /**
   * One job per active endpoint of the user subscribed to the event. `hasActive` first: a user without endpoints
   * (nearly every decision) costs one store read and no Redis command at all.
   */
  async emit(event: WebhookEvent): Promise<void> {
    if (!this.endpoints || !(await this.endpoints.hasActive(event.user_id))) return;
    const targets = (await this.endpoints.listActiveForUser(event.user_id, event.type)).filter(
      (endpoint) => endpoint.user_id === event.user_id && (!event.signed_in || endpoint.include_signed_in_decisions),
    );
    if (targets.length === 0) return;
    const payload = webhookEnvelope(event.type, event.occurred_at ?? new Date(), event.data);
    await this.queue.addBulk(
      targets.map((endpoint) => {
        const chain = chainId(endpoint.id, event.id);
        const data = { endpoint_id: endpoint.id, event_id: event.id, event_type: event.type, payload, attempt: 1, chain, manual: false };
        return { name: event.type, data, opts: jobOptions(chain) };
      }),
    );
  }

  /** A `webhook.test` event to this one endpoint, whatever it subscribes to. */
  async sendTest(endpoint: { id: string }): Promise<{ event_id: string }> {
    const eventId = `evt_test_${randomBytes(12).toString("hex")}`;
    const type = "webhook.test";
    const payload = webhookEnvelope(type, new Date(), {
      endpoint_id: endpoint.id,
      message: "This is a test event from Smart Decision. Your endpoint received and can verify it.",
    });
    const chain = chainId(endpoint.id, eventId);
    await this.queue.add(type, { endpoint_id: endpoint.id, event_id: eventId, event_type: type, payload, attempt: 1, chain, manual: true }, jobOptions(chain));
    return { event_id: eventId };
  }

  /** The logged delivery's exact body again, under the same event id (receivers dedupe it if they already had it). */
  async resend(delivery: LoggedWebhookDelivery): Promise<void> {
    const chain = chainId(delivery.endpoint_id, delivery.event_id, `resend-${Date.now().toString(36)}${randomBytes(2).toString("hex")}`);
    const data = { endpoint_id: delivery.endpoint_id, event_id: delivery.event_id, event_type: delivery.event_type, payload: delivery.payload, attempt: 1, chain, manual: true };
    await this.queue.add(delivery.event_type, data, jobOptions(chain));
  }

  /**
   * The next attempt of a failed delivery, `delayMs` from now. Its id is fixed per attempt, so a rerun of the failed one adds
   * nothing. Retries are never manual: an endpoint switched off in the meantime gets none.
   */
  async scheduleRetry(job: WebhookDeliveryJob, delayMs: number): Promise<string> {
    const next = { ...job, attempt: job.attempt + 1, manual: false };
    const jobId = `${job.chain}.a${next.attempt}`;
    await this.queue.add(job.event_type, next, jobOptions(jobId, delayMs));
    return jobId;
  }

  /** A delivery job as Redis holds it (its delay and data): for the queue board and tests. */
  async inspect(jobId: string): Promise<{ delay: number; data: WebhookDeliveryJob; state: string } | null> {
    const job = await this.queue.getJob(jobId);
    if (!job) return null;
    return { delay: job.delay, data: job.data, state: await job.getState() };
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

/** What the delivery processor decided: the delay before the next attempt, or none. */
export interface WebhookAttemptPlan {
  retryInMs: number | null;
}

export interface WebhookWorkerSettings {
  connection: Redis;
  prefix: string;
  /** Deliveries in flight in this process (WEBHOOK_WORKER_CONCURRENCY). */
  concurrency: number;
  lockMs: number;
}

/**
 * Works the webhook queue: `deliver` makes one attempt and says whether to retry; the next attempt is then added as
 * a delayed job before this one completes (a crash in between reruns this attempt, whose retry id is the same).
 */
export function createWebhookWorker(
  deliver: (job: WebhookDeliveryJob) => Promise<WebhookAttemptPlan>,
  dispatch: WebhookDispatch,
  settings: WebhookWorkerSettings,
): WorkerPool<WebhookDeliveryJob, WebhookAttemptPlan> {
  return createWorker<WebhookDeliveryJob, WebhookAttemptPlan>(
    WEBHOOK_QUEUE,
    async (job: Job<WebhookDeliveryJob, WebhookAttemptPlan, string>) => {
      const plan = await deliver(job.data);
      if (plan.retryInMs !== null) await dispatch.scheduleRetry(job.data, plan.retryInMs);
      return plan;
    },
    settings,
  );
}
