import type { RequestHandler, Router } from "express";
import { API_KEY_MESSAGES, FREE_TIER } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { Store } from "@sd/store";
import { signedInUser } from "../auth";
import { EndpointRouter } from "../http/endpoint-router";
import type { ApiKeyService } from "./api-key-service";
import { periodStart, type MonthlyQuota } from "./monthly-quota";

export interface ApiKeyRouteDeps {
  keys: ApiKeyService;
  store: Store;
  requireUser: RequestHandler;
  /** Per-user limit on creating and revealing keys (the sensitive writes and reads). */
  perUserLimit: RequestHandler;
  quota: MonthlyQuota;
}

/** The only answers that carry a key: never kept by a cache. */
const NO_STORE = { "Cache-Control": "no-store" } as const;

/**
 * The owner's API-key endpoints (bearer) and this month's usage. Every key endpoint acts on the
 * caller's own keys only: another user's key id is answered exactly like an unknown one.
 */
export function apiKeyRoutes({ keys, store, requireUser, perUserLimit, quota }: ApiKeyRouteDeps): Router {
  return new EndpointRouter("/api", { bearer: requireUser })
    .mount(ENDPOINTS.listApiKeys, {
      handler: async ({ res }) => ({ status: 200, body: await keys.list(signedInUser(res).userId) }),
    })
    .mount(ENDPOINTS.createApiKey, {
      after: [perUserLimit],
      handler: async ({ body, res }) => {
        const { userId, email } = signedInUser(res);
        return { status: 201, body: await keys.create({ userId, email }, body), headers: NO_STORE };
      },
    })
    .mount(ENDPOINTS.updateApiKey, {
      handler: async ({ params, body, res }) => ({ status: 200, body: await keys.setActive(params.id, signedInUser(res).userId, body.active_status) }),
    })
    .mount(ENDPOINTS.setApiKeySpendLimit, {
      handler: async ({ params, body, res }) => ({
        status: 200,
        body: await keys.setSpendLimit(params.id, signedInUser(res).userId, body.monthly_spend_limit_usd),
      }),
    })
    .mount(ENDPOINTS.deleteApiKey, {
      handler: async ({ params, res }) => {
        await keys.delete(params.id, signedInUser(res).userId);
        return { status: 200, body: { success: true as const, message: API_KEY_MESSAGES.deleted } };
      },
    })
    .mount(ENDPOINTS.revealApiKey, {
      after: [perUserLimit],
      handler: async ({ params, res }) => ({ status: 200, body: { api_key: await keys.reveal(params.id, signedInUser(res).userId) }, headers: NO_STORE }),
    })
    .mount(ENDPOINTS.getUsage, {
      handler: async ({ res }) => {
        const { userId } = signedInUser(res);
        const now = new Date();
        const [api_requests, storage_bytes] = await Promise.all([quota.used(userId, now), store.apiUsage.storageBytes(userId)]);
        return {
          status: 200,
          body: { period_start: periodStart(now).toISOString(), api_requests, api_request_limit: quota.limit, storage_bytes, storage_limit_bytes: FREE_TIER.storageBytes },
        };
      },
    }).router;
}
