import type { RequestHandler, Router } from "express";
import { API_KEY_MESSAGES } from "@sd/contracts";
import type { GatewayEnv } from "@sd/config";
import { ApiKeyUsage, type Redis } from "@sd/queue";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { perKeyRateLimit } from "../http/rate-limit";
import { ApiKeyService } from "./api-key-service";
import { IdempotencyRecords } from "./idempotency";
import { KeyCipher } from "./key-material";
import { currentApiKey, keyAccess, spendLimit } from "./middleware";
import { MonthlyQuota } from "./monthly-quota";
import { apiKeyRoutes } from "./routes";

export { ApiKeyService, toApiKey } from "./api-key-service";
export { IDEMPOTENCY_TTL_SECONDS, IdempotencyRecords } from "./idempotency";
export { currentApiKey, spendLimit } from "./middleware";
export { MonthlyQuota } from "./monthly-quota";

export interface ApiKeys {
  /** /api/api-keys and /api/usage (bearer), mounted under /api. */
  routes: Router;
  /** SD-API-KEY authentication, per-key rate limit and monthly quota, for /v1 and the external paths. */
  keyAccess: RequestHandler;
  /** The key's monthly spend limit (402), after `keyAccess` on the routes that start decisions. */
  spendLimit: RequestHandler;
  idempotency: IdempotencyRecords;
  service: ApiKeyService;
}

export interface ApiKeysDeps {
  env: Pick<GatewayEnv, "QUEUE_PREFIX" | "API_MONTHLY_QUOTA" | "API_KEY_RATE_LIMIT_PER_MINUTE">;
  store: Store;
  redis: Redis;
  logger: Logger;
  /** The AES-256-GCM key, from `resolveApiKeyEncryptionKey`. */
  encryptionKey: Buffer;
  requireUser: RequestHandler;
  perUserLimit: RequestHandler;
}

/** API keys: the owner's endpoints, and what every key-authenticated call goes through. */
export function createApiKeys({ env, store, redis, logger, encryptionKey, requireUser, perUserLimit }: ApiKeysDeps): ApiKeys {
  const usage = new ApiKeyUsage(redis, env.QUEUE_PREFIX);
  const service = new ApiKeyService(store, new KeyCipher(encryptionKey), usage);
  const rateLimit = perKeyRateLimit(
    redis,
    env.QUEUE_PREFIX,
    "api-key",
    env.API_KEY_RATE_LIMIT_PER_MINUTE,
    60_000,
    (_req, res) => currentApiKey(res).id,
    API_KEY_MESSAGES.rateLimited,
  );
  const quota = new MonthlyQuota(redis, env.QUEUE_PREFIX, env.API_MONTHLY_QUOTA);
  return {
    routes: apiKeyRoutes({ keys: service, store, requireUser, perUserLimit, quota }),
    keyAccess: keyAccess({ keys: service, store, rateLimit, quota, usage, logger: logger.child({ component: "api-keys" }) }),
    spendLimit: spendLimit(service),
    idempotency: new IdempotencyRecords(redis, env.QUEUE_PREFIX),
    service,
  };
}
