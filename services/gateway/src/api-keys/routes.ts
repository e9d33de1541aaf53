import { Router, type RequestHandler } from "express";
import {
  API_KEY_MESSAGES,
  ApiKeyCreateSchema,
  ApiKeyUpdateSchema,
  FREE_TIER,
  type ApiKey,
  type ApiKeyReveal,
  type Usage,
} from "@sd/contracts";
import type { Store } from "@sd/store";
import { signedInUser } from "../auth";
import { smallJsonBody } from "../http/json-body";
import { parseBody } from "../http/validate";
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

/**
 * The owner's API-key endpoints (bearer) and GET /api/usage.
 * Every key endpoint acts on the caller's own keys only: another user's key id is answered exactly
 * like an unknown one (404 'API key not found'), on read, update, reveal and delete alike.
 */
export function apiKeyRoutes({ keys, store, requireUser, perUserLimit, quota }: ApiKeyRouteDeps): Router {
  const router = Router();

  router.get("/api-keys", requireUser, async (_req, res) => {
    res.json((await keys.list(signedInUser(res).userId)) satisfies ApiKey[]);
  });

  router.post("/api-keys", requireUser, perUserLimit, smallJsonBody, async (req, res) => {
    const input = parseBody(ApiKeyCreateSchema, req);
    const { userId, email } = signedInUser(res);
    // The only answer that carries the key; it is never written to a log or kept by a cache.
    res.setHeader("Cache-Control", "no-store");
    res.status(201).json((await keys.create({ userId, email }, input)) satisfies ApiKey);
  });

  router.put("/api-keys/:id", requireUser, smallJsonBody, async (req, res) => {
    const { active_status } = parseBody(ApiKeyUpdateSchema, req);
    res.json((await keys.setActive(req.params.id as string, signedInUser(res).userId, active_status)) satisfies ApiKey);
  });

  router.delete("/api-keys/:id", requireUser, async (req, res) => {
    await keys.delete(req.params.id as string, signedInUser(res).userId);
    res.json({ success: true, message: API_KEY_MESSAGES.deleted });
  });

  router.get("/api-keys/:id/reveal", requireUser, perUserLimit, async (req, res) => {
    const api_key = await keys.reveal(req.params.id as string, signedInUser(res).userId);
    res.setHeader("Cache-Control", "no-store");
    res.json({ api_key } satisfies ApiKeyReveal);
  });

  router.get("/usage", requireUser, async (_req, res) => {
    const { userId } = signedInUser(res);
    const now = new Date();
    const [api_requests, storage_bytes] = await Promise.all([quota.used(userId, now), store.apiUsage.storageBytes(userId)]);
    res.json({
      period_start: periodStart(now).toISOString(),
      api_requests,
      api_request_limit: quota.limit,
      storage_bytes,
      storage_limit_bytes: FREE_TIER.storageBytes,
    } satisfies Usage);
  });

  return router;
}
