import { Router, type RequestHandler, type Response } from "express";
import { API_KEY_HEADER, API_KEY_MESSAGES } from "@sd/contracts";
import type { Store, StoredApiKey } from "@sd/store";
import type { ApiKeyUsage } from "@sd/queue";
import type { Logger } from "@sd/telemetry";
import type { AccessClaims } from "../auth/tokens";
import { HttpError } from "../http/errors";
import type { ApiKeyService } from "./api-key-service";
import { nextPeriodStart, type MonthlyQuota } from "./monthly-quota";

/** How precisely `last_used_at` is kept. */
const LAST_USED_RESOLUTION_MS = 1000;

/** The key a request came with, set by the key middleware. */
export function currentApiKey(res: Response): StoredApiKey {
  const key = res.locals.apiKey as StoredApiKey | undefined;
  if (!key) throw new HttpError(401, API_KEY_MESSAGES.missingKey);
  return key;
}

/** Whole seconds from `now` to the first instant of next month (UTC), when the monthly quota starts again. */
export function secondsUntilNextMonth(now: Date): number {
  return Math.max(1, Math.ceil((nextPeriodStart(now).getTime() - now.getTime()) / 1000));
}

export interface KeyAccessDeps {
  keys: ApiKeyService;
  store: Store;
  /** Per-key requests per minute (express-rate-limit on Redis), keyed by `currentApiKey(res).id`. */
  rateLimit: RequestHandler;
  /** API requests per user per calendar month (API_MONTHLY_QUOTA). */
  quota: MonthlyQuota;
  /** Each key's calls and spend per calendar month. */
  usage: ApiKeyUsage;
  logger: Logger;
}

/**
 * Refuses a call that would spend (a new decision) once the key's monthly spend limit is reached,
 * with a 402 before the body is read or any model asked. Mounted after `keyAccess` on the routes
 * that spend only: reading results and history stays open past the limit.
 */
export function spendLimit(keys: ApiKeyService): RequestHandler {
  return async (_req, res, next) => {
    await keys.assertWithinSpendLimit(currentApiKey(res));
    next();
  };
}

/**
 * Checks a key call in order: an active key (401), its per-minute limit, then the owner's monthly
 * quota (429s); calls the per-minute limit refuses are not counted, the others count for the
 * owner's quota and for the key's calls this month. The key is never cached, so
 * deactivating it takes effect on the next call on every replica. The request then acts as the owner.
 */
export function keyAccess({ keys, store, rateLimit, quota, usage, logger }: KeyAccessDeps): RequestHandler {
  const authenticate: RequestHandler = async (req, res, next) => {
    const key = await keys.authenticate(req.get(API_KEY_HEADER));
    if (key === "missing") throw new HttpError(401, API_KEY_MESSAGES.missingKey);
    if (key === "invalid") throw new HttpError(401, API_KEY_MESSAGES.invalidKey);
    res.locals.apiKey = key;
    res.locals.user = { userId: key.user_id, email: key.created_by, sessionId: `api-key:${key.id}` } satisfies AccessClaims;
    const now = new Date();
    // last_used_at is kept to the second: a key busy many times a second is written once a second,
    // not once a call (each write is an fsync on the embedded store, a round trip on MongoDB).
    // Started now and awaited after the quota, so the write overlaps the two Redis checks.
    res.locals.apiKeyTouched =
      key.last_used_at !== null && now.getTime() - key.last_used_at.getTime() < LAST_USED_RESOLUTION_MS
        ? Promise.resolve()
        : store.apiKeys.touch(key.id, now).catch((error: unknown) => {
            logger.warn({ err: error, api_key_id: key.id }, "could not record the API key's last use");
          });
    next();
  };

  const meter: RequestHandler = async (_req, res, next) => {
    const key = currentApiKey(res);
    const now = new Date();
    const [counted] = await Promise.all([quota.consume(key.user_id, now), res.locals.apiKeyTouched as Promise<void>]);
    if (!counted) {
      res.setHeader("Retry-After", String(secondsUntilNextMonth(now)));
      throw new HttpError(429, API_KEY_MESSAGES.quotaExceeded(quota.limit));
    }
    // The key's share of the owner's count: the calls the settings table shows per key.
    await usage.countRequest(key.id, now);
    next();
  };

  return Router().use(authenticate, rateLimit, meter);
}
