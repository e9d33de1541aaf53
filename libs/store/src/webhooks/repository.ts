import { randomUUID } from "node:crypto";
import type { WebhookEventType } from "@sd/contracts";
import type { Collection, Filter } from "../collection";
import type { WebhookDeliveryDocument, WebhookEndpointDocument, WebhookSecretDocument } from "./schema";

/** A signing secret; the list is newest first, and expired ones are never returned. */
export type WebhookSecret = WebhookSecretDocument;

/** A webhook endpoint as the repository returns it (with its live secrets: never answer it to a client as is). */
export type WebhookEndpointRecord = Omit<WebhookEndpointDocument, "_id"> & { id: string };

/** One delivery attempt as the repository returns it. */
export type WebhookDeliveryRecord = Omit<WebhookDeliveryDocument, "_id"> & { id: string };

export type NewWebhookEndpoint = Pick<WebhookEndpointRecord, "user_id" | "url" | "events" | "description" | "active" | "include_signed_in_decisions" | "created_at"> & {
  /** The first signing secret. */
  secret: string;
};

/** What the owner may change; `active: true` also clears the worker's disabled notice and failure streak. */
export type WebhookEndpointChange = Partial<Pick<WebhookEndpointRecord, "url" | "events" | "description" | "active" | "include_signed_in_decisions">>;

/** Secrets one endpoint keeps at most (the current one and those still in their overlap), so a burst of rotations cannot grow the signature header without bound. */
export const MAX_WEBHOOK_SECRETS = 5;

export interface WebhookEndpointRepository {
  /** Stores a new endpoint under a fresh id, unless its owner has `maxPerUser` already (then null). */
  create(endpoint: NewWebhookEndpoint, maxPerUser: number): Promise<WebhookEndpointRecord | null>;
  /** A user's endpoints, oldest first. */
  listForUser(userId: string): Promise<WebhookEndpointRecord[]>;
  /** The endpoint if it belongs to `userId`; null for an unknown id and for another user's endpoint alike. */
  findOwned(id: string, userId: string): Promise<WebhookEndpointRecord | null>;
  /** Any user's endpoint (the delivery worker's read). */
  findById(id: string): Promise<WebhookEndpointRecord | null>;
  /** The user's active endpoints subscribed to `eventType` (the emitter's fan-out). */
  listActiveForUser(userId: string, eventType: WebhookEventType): Promise<WebhookEndpointRecord[]>;
  /** Whether the user has any active endpoint: the emitter's cheap check before building an event. */
  hasActive(userId: string): Promise<boolean>;
  /** Changes the owner's endpoint; null for anyone else's or an unknown id. */
  updateOwned(id: string, userId: string, change: WebhookEndpointChange, at: Date): Promise<WebhookEndpointRecord | null>;
  /** Deletes the owner's endpoint and its delivery log; false (and nothing deleted) for anyone else's or an unknown id. */
  deleteOwned(id: string, userId: string): Promise<boolean>;
  /**
   * Makes `secret` the current secret; the previous current one keeps signing until `at + overlapMs`.
   * Expired secrets are dropped. Null for anyone else's or an unknown id.
   */
  rotateSecret(id: string, userId: string, secret: string, at: Date, overlapMs: number): Promise<WebhookEndpointRecord | null>;
  /** A delivery's outcome: success ends a failure streak, a failure starts one unless one is running. Null when the endpoint is gone. */
  recordOutcome(id: string, outcome: { ok: boolean; at: Date }): Promise<WebhookEndpointRecord | null>;
  /** Switches the endpoint off with a notice for its owner (the delivery worker, after a day of failures). */
  disable(id: string, reason: string): Promise<void>;
  count(): Promise<number>;
}

export interface WebhookDeliveryRepository {
  insert(record: WebhookDeliveryRecord): Promise<void>;
  /** An endpoint's log, newest first; `before` keeps the rows created strictly before it. */
  listForEndpoint(endpointId: string, page: { limit: number; offset?: number; before?: Date }): Promise<WebhookDeliveryRecord[]>;
  countForEndpoint(endpointId: string): Promise<number>;
  findById(id: string): Promise<WebhookDeliveryRecord | null>;
  /** Deletes the rows created before `date` (the log keeps 30 days); how many. */
  deleteOlderThan(date: Date): Promise<number>;
}

function present(value: string, name: string): string {
  if (typeof value !== "string" || value === "") throw new RangeError(`${name} must be a non-empty string`);
  return value;
}

// $eq compares literally: an id taken from a request can never act as a query operator.
const byId = (id: string): Filter => ({ _id: { $eq: id } });
const ofUser = (userId: string): Filter => ({ user_id: { $eq: present(userId, "userId") } });
const ownedBy = (id: string, userId: string): Filter => ({ ...byId(id), ...ofUser(userId) });

const liveSecrets = (secrets: readonly WebhookSecret[], now: Date): WebhookSecret[] =>
  secrets.filter((s) => s.expires_at === null || s.expires_at.getTime() > now.getTime()).map((s) => ({ secret: s.secret, expires_at: s.expires_at }));

/**
 * Endpoints over their collection; deleting one also deletes its rows in `deliveries`. `now` is the
 * clock secrets expire by (a test's fixed clock, or the real one).
 */
export function createWebhookEndpointRepository(
  endpoints: Collection<WebhookEndpointDocument>,
  deliveries: Collection<WebhookDeliveryDocument>,
  now: () => Date = () => new Date(),
): WebhookEndpointRepository {
  const fromDocument = ({ _id, events, secrets, ...fields }: WebhookEndpointDocument): WebhookEndpointRecord => ({
    id: _id,
    ...fields,
    events: [...events],
    secrets: liveSecrets(secrets, now()),
  });
  const findOne = async (filter: Filter) => {
    const doc = await endpoints.findOne(filter);
    return doc ? fromDocument(doc) : null;
  };

  return {
    async create({ secret, ...endpoint }, maxPerUser) {
      // Counted before the insert: two saves at the same instant may pass it together, which costs
      // one endpoint over the limit at worst; the limit bounds a list and the fan-out, it guards no money.
      if ((await endpoints.countDocuments(ofUser(endpoint.user_id))) >= maxPerUser) return null;
      const doc: WebhookEndpointDocument = {
        _id: randomUUID(),
        user_id: endpoint.user_id,
        url: endpoint.url,
        events: [...endpoint.events],
        description: endpoint.description,
        active: endpoint.active,
        include_signed_in_decisions: endpoint.include_signed_in_decisions,
        secrets: [{ secret, expires_at: null }],
        failing_since: null,
        disabled_reason: null,
        created_at: endpoint.created_at,
        updated_at: endpoint.created_at,
      };
      await endpoints.insertOne(doc);
      return fromDocument(doc);
    },

    async listForUser(userId) {
      return (await endpoints.find(ofUser(userId), { sort: { created_at: 1, _id: 1 } })).map(fromDocument);
    },

    findOwned: (id, userId) => findOne(ownedBy(id, userId)),

    findById: (id) => findOne(byId(id)),

    async listActiveForUser(userId, eventType) {
      const docs = await endpoints.find({ ...ofUser(userId), active: true, events: { $eq: eventType } }, { sort: { created_at: 1, _id: 1 } });
      return docs.map(fromDocument);
    },

    async hasActive(userId) {
      return (await endpoints.findOne({ ...ofUser(userId), active: true })) !== null;
    },

    async updateOwned(id, userId, change, at) {
      const set: Record<string, unknown> = { updated_at: at };
      for (const [field, value] of Object.entries(change)) if (value !== undefined) set[field] = value;
      // Switching an endpoint on again is the owner's answer to the notice: it and the streak go.
      if (change.active === true) Object.assign(set, { disabled_reason: null, failing_since: null });
      const result = await endpoints.updateOne(ownedBy(id, userId), { $set: set });
      if (result.matchedCount === 0) return null;
      return findOne(ownedBy(id, userId));
    },

    async deleteOwned(id, userId) {
      if ((await endpoints.deleteMany(ownedBy(id, userId))) === 0) return false;
      await deliveries.deleteMany({ endpoint_id: { $eq: id } });
      return true;
    },

    async rotateSecret(id, userId, secret, at, overlapMs) {
      const doc = await endpoints.findOne(ownedBy(id, userId));
      if (!doc) return null;
      const until = new Date(at.getTime() + overlapMs);
      const previous = liveSecrets(doc.secrets, at).map((s) => ({ secret: s.secret, expires_at: s.expires_at === null || s.expires_at > until ? until : s.expires_at }));
      const secrets = [{ secret, expires_at: null }, ...previous].slice(0, MAX_WEBHOOK_SECRETS);
      // Two rotations of one endpoint at the same instant: the later write wins and the other's secret
      // is never used; its owner sees that on the endpoint's signatures and rotates again.
      const result = await endpoints.updateOne(ownedBy(id, userId), { $set: { secrets, updated_at: at } });
      return result.matchedCount === 0 ? null : findOne(ownedBy(id, userId));
    },

    async recordOutcome(id, { ok, at }) {
      if (ok) await endpoints.updateOne({ ...byId(id), failing_since: { $ne: null } }, { $set: { failing_since: null } });
      else await endpoints.updateOne({ ...byId(id), failing_since: null }, { $set: { failing_since: at } });
      return findOne(byId(id));
    },

    async disable(id, reason) {
      await endpoints.updateOne(byId(id), { $set: { active: false, disabled_reason: reason, updated_at: now() } });
    },

    count() {
      return endpoints.countDocuments({});
    },
  };
}

export function createWebhookDeliveryRepository(deliveries: Collection<WebhookDeliveryDocument>): WebhookDeliveryRepository {
  const fromDocument = ({ _id, ...fields }: WebhookDeliveryDocument): WebhookDeliveryRecord => ({ id: _id, ...fields });
  const ofEndpoint = (endpointId: string): Filter => ({ endpoint_id: { $eq: present(endpointId, "endpointId") } });

  return {
    async insert({ id, ...record }) {
      await deliveries.insertOne({ _id: id, ...record });
    },

    async listForEndpoint(endpointId, { limit, offset = 0, before }) {
      const filter = before ? { ...ofEndpoint(endpointId), created_at: { $lt: before } } : ofEndpoint(endpointId);
      const docs = await deliveries.find(filter, { sort: { created_at: -1, _id: 1 }, skip: offset, limit });
      return docs.map(fromDocument);
    },

    countForEndpoint(endpointId) {
      return deliveries.countDocuments(ofEndpoint(endpointId));
    },

    async findById(id) {
      const doc = await deliveries.findOne(byId(id));
      return doc ? fromDocument(doc) : null;
    },

    deleteOlderThan(date) {
      return deliveries.deleteMany({ created_at: { $lt: date } });
    },
  };
}
