import { randomBytes } from "node:crypto";
import {
  WEBHOOK_LIMITS,
  WEBHOOK_MESSAGES,
  type WebhookCreate,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookDeliveryListQuery,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookQueued,
  type WebhookUpdate,
} from "@sd/contracts";
import type { WebhookDeliveryRecord, WebhookDeliveryRepository, WebhookEndpointRecord, WebhookEndpointRepository } from "@sd/store";
import { checkWebhookUrl, WebhookUrlError } from "@sd/webhooks";
import { DomainError } from "./errors";

/** What the management API asks of the delivery queue: a test event, and a logged delivery again. */
export interface WebhookDispatcher {
  sendTest(endpoint: WebhookEndpointRecord): Promise<{ event_id: string }>;
  resend(delivery: WebhookDeliveryRecord): Promise<void>;
}

export interface WebhookUseCaseDeps {
  endpoints: WebhookEndpointRepository;
  deliveries: WebhookDeliveryRepository;
  dispatch: WebhookDispatcher;
  /** WEBHOOK_ALLOW_PRIVATE_URLS as resolved (see `webhookAllowPrivateUrls`). */
  allowPrivateUrls: boolean;
  now?: () => Date;
}

/** A fresh signing secret in the Standard Webhooks form: `whsec_` and the base64 of random bytes. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(WEBHOOK_LIMITS.secretBytes).toString("base64")}`;
}

const iso = (date: Date | null) => (date ? date.toISOString() : null);

/** The endpoint as its owner sees it: every field but the secrets. */
export function toWebhookEndpoint(endpoint: WebhookEndpointRecord): WebhookEndpoint {
  return {
    id: endpoint.id,
    url: endpoint.url,
    events: endpoint.events,
    description: endpoint.description,
    active: endpoint.active,
    include_signed_in_decisions: endpoint.include_signed_in_decisions,
    failing_since: iso(endpoint.failing_since),
    disabled_reason: endpoint.disabled_reason,
    // Secrets are newest first: the second is the one rotated out last, the one expiring latest.
    previous_secret_expires_at: iso(endpoint.secrets[1]?.expires_at ?? null),
    created_at: endpoint.created_at.toISOString(),
    updated_at: endpoint.updated_at.toISOString(),
  };
}

const toDelivery = (delivery: WebhookDeliveryRecord): WebhookDelivery => ({
  id: delivery.id,
  event_id: delivery.event_id,
  event_type: delivery.event_type,
  attempt: delivery.attempt,
  ok: delivery.ok,
  status_code: delivery.status_code,
  latency_ms: delivery.latency_ms,
  response_excerpt: delivery.response_excerpt,
  error: delivery.error,
  next_attempt_at: iso(delivery.next_attempt_at),
  created_at: delivery.created_at.toISOString(),
});

/**
 * A signed-in user's webhook endpoints: another user's endpoint (and its deliveries) is not found,
 * exactly like an unknown id. Secrets leave only in the answers of creation and rotation.
 */
export class WebhookUseCases {
  private readonly now: () => Date;

  constructor(private readonly deps: WebhookUseCaseDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async list(userId: string): Promise<WebhookEndpoint[]> {
    return (await this.deps.endpoints.listForUser(userId)).map(toWebhookEndpoint);
  }

  async get(userId: string, id: string): Promise<WebhookEndpoint> {
    return toWebhookEndpoint(await this.owned(userId, id));
  }

  async create(userId: string, body: WebhookCreate): Promise<WebhookEndpointWithSecret> {
    await this.checkUrl(body.url);
    const secret = newWebhookSecret();
    const endpoint = await this.deps.endpoints.create({ user_id: userId, ...body, secret, created_at: this.now() }, WEBHOOK_LIMITS.maxPerUser);
    if (!endpoint) throw new DomainError("invalid", WEBHOOK_MESSAGES.tooMany);
    return { ...toWebhookEndpoint(endpoint), secret, message: WEBHOOK_MESSAGES.created };
  }

  async update(userId: string, id: string, change: WebhookUpdate): Promise<WebhookEndpoint> {
    // Ownership first: someone else's id is a 404 whatever the body says.
    await this.owned(userId, id);
    if (change.url !== undefined) await this.checkUrl(change.url);
    const endpoint = await this.deps.endpoints.updateOwned(id, userId, change, this.now());
    if (!endpoint) throw new DomainError("not-found", WEBHOOK_MESSAGES.notFound);
    return toWebhookEndpoint(endpoint);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.deps.endpoints.deleteOwned(id, userId))) throw new DomainError("not-found", WEBHOOK_MESSAGES.notFound);
  }

  async rotateSecret(userId: string, id: string): Promise<WebhookEndpointWithSecret> {
    const secret = newWebhookSecret();
    const endpoint = await this.deps.endpoints.rotateSecret(id, userId, secret, this.now(), WEBHOOK_LIMITS.rotationOverlapMs);
    if (!endpoint) throw new DomainError("not-found", WEBHOOK_MESSAGES.notFound);
    return { ...toWebhookEndpoint(endpoint), secret, message: WEBHOOK_MESSAGES.rotated };
  }

  async deliveries(userId: string, id: string, { limit, offset }: WebhookDeliveryListQuery): Promise<WebhookDeliveryList> {
    await this.owned(userId, id);
    const [page, total] = await Promise.all([this.deps.deliveries.listForEndpoint(id, { limit, offset }), this.deps.deliveries.countForEndpoint(id)]);
    return { deliveries: page.map(toDelivery), total, limit, offset };
  }

  async sendTest(userId: string, id: string): Promise<WebhookQueued> {
    const { event_id } = await this.deps.dispatch.sendTest(await this.owned(userId, id));
    return { event_id, message: WEBHOOK_MESSAGES.testQueued };
  }

  async resend(userId: string, id: string, deliveryId: string): Promise<WebhookQueued> {
    await this.owned(userId, id);
    const delivery = await this.deps.deliveries.findById(deliveryId);
    // A delivery of another endpoint (even the caller's own) is not one of this endpoint's log.
    if (!delivery || delivery.endpoint_id !== id || delivery.user_id !== userId) throw new DomainError("not-found", WEBHOOK_MESSAGES.deliveryNotFound);
    await this.deps.dispatch.resend(delivery);
    return { event_id: delivery.event_id, message: WEBHOOK_MESSAGES.resendQueued };
  }

  /** Deletes the delivery log rows past their 30 days (the embedded store has no TTL index); how many. */
  purgeOldDeliveries(): Promise<number> {
    return this.deps.deliveries.deleteOlderThan(new Date(this.now().getTime() - WEBHOOK_LIMITS.deliveryRetentionMs));
  }

  private async owned(userId: string, id: string): Promise<WebhookEndpointRecord> {
    const endpoint = await this.deps.endpoints.findOwned(id, userId);
    if (!endpoint) throw new DomainError("not-found", WEBHOOK_MESSAGES.notFound);
    return endpoint;
  }

  /** Refuses a URL deliveries may not go to (plain http, internal addresses) with the checker's own words. */
  private async checkUrl(url: string): Promise<void> {
    try {
      await checkWebhookUrl(url, { allowPrivate: this.deps.allowPrivateUrls });
    } catch (error) {
      if (error instanceof WebhookUrlError) throw new DomainError("invalid", error.message);
      throw error;
    }
  }
}
