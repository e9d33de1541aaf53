import cors from "cors";
import express, { type Express } from "express";
import type { GatewayEnv } from "@sd/config";
import { MESSAGES, type ProviderConfig } from "@sd/contracts";
import type { ModelProvider } from "@sd/providers";
import type { QueueInspector, Redis } from "@sd/queue";
import type { Store, StoredApiKey } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import type { ApiKeys } from "./api-keys";
import type { Auth } from "./auth";
import type { DecisionService } from "./decision-service";
import { errorHandler, HttpError } from "./http/errors";
import type { Mailer } from "./mail/mailer";
import { httpMetrics, requestLogging } from "./http/observability";
import { jsonBody } from "./http/json-body";
import { perIpByteLimit, perIpRateLimit } from "./http/rate-limit";
import { securityHeaders } from "./http/security-headers";
import { decisionHistoryRoutes, keyHistoryRoutes } from "./routes/decision-history";
import { historyExportRoutes } from "./routes/history-export";
import { shareRoutes } from "./routes/shares";
import { decisionRoutes } from "./routes/decisions";
import { healthRoutes } from "./routes/health";
import { imageAssetFailures, imageAssetRoutes } from "./routes/image-assets";
import { jobApplicationRoutes } from "./routes/job-application";
import { waitlistRoutes } from "./routes/waitlist";
import { providerRoutes } from "./routes/providers";
import { suggestionRoutes } from "./routes/suggestions";
import { webAppRoutes } from "./routes/web-app";
import { v1Routes } from "./routes/v1";
import { openAiRoutes } from "./routes/openai-compatible";
import { mcpRoutes } from "./routes/mcp";
import { presetRoutes } from "./routes/presets";
import { batchRoutes } from "./routes/batches";
import { webBatchRoutes } from "./routes/web-batches";
import { webhookRoutes } from "./routes/webhooks";
import { openApiRoutes } from "./openapi";
import { adminRoutes } from "./admin";
import type { QueueView } from "./admin-queues";
import type { UseCases } from "./use-cases";

export interface AppDeps {
  env: GatewayEnv;
  logger: Logger;
  redis: Redis;
  decisions: DecisionService;
  useCases: UseCases;
  suggester: ModelProvider;
  deciders: readonly ProviderConfig[];
  queues: QueueInspector;
  store: Store;
  mailer: Mailer;
  auth: Auth;
  apiKeys: ApiKeys;
  /** Bull Board at /admin/queues and the route minting its session. */
  queueView: QueueView;
  /** /ready's check (see `healthRoutes`). */
  ready: Parameters<typeof healthRoutes>[0];
}

export function createApp({ env, logger, redis, decisions, useCases, suggester, deciders, queues, store, mailer, auth, apiKeys, queueView, ready }: AppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", env.TRUST_PROXY);
  app.use(securityHeaders());
  if (env.CORS_ORIGINS.length > 0) app.use(cors({ origin: env.CORS_ORIGINS }));
  app.use(healthRoutes(ready));
  app.use(requestLogging(logger), httpMetrics());
  // No body parser here: each route reads its own body, after the checks that can refuse it unread.
  const imageBody = jsonBody({ limit: env.BODY_LIMIT_MB * 1024 * 1024, tooLarge: MESSAGES.imagesTooLarge });

  const publicLimit = perIpRateLimit(redis, env.QUEUE_PREFIX, "public", env.RATE_LIMIT_PER_MINUTE);
  // Bodies of the endpoints whose images Redis holds while their decisions run.
  const byteLimit = perIpByteLimit(redis, env.QUEUE_PREFIX, env.RATE_LIMIT_MB_PER_MINUTE);
  const formLimit = perIpRateLimit(redis, env.QUEUE_PREFIX, "forms", env.FORMS_RATE_LIMIT_PER_HOUR, 60 * 60_000);
  app.use(
    "/api",
    providerRoutes(deciders, decisions.ensembleDefaults),
    auth.routes,
    decisionRoutes({ decisions: useCases.decisions, publicLimit, byteLimit, imageBody, requireUser: auth.requireUser, userLimit: auth.perUserLimit }),
    decisionHistoryRoutes(useCases.history, auth.requireUser),
    presetRoutes(useCases.presets, auth.requireUser),
    webBatchRoutes(useCases.batches, auth.requireUser),
    webhookRoutes(useCases.webhooks, auth.requireUser),
    historyExportRoutes(useCases.historyExport, auth.requireUser),
    // Opening a shared decision has its own per-address budget, apart from the decisions'.
    shareRoutes(useCases.shares, auth.requireUser, perIpRateLimit(redis, env.QUEUE_PREFIX, "shared", env.RATE_LIMIT_PER_MINUTE)),
    imageAssetRoutes(useCases.imageAssets, auth.optionalUser, imageBody),
    suggestionRoutes(suggester, publicLimit, imageBody, logger),
    waitlistRoutes(store, formLimit),
    jobApplicationRoutes(store, mailer, env, formLimit, logger),
    apiKeys.routes,
    adminRoutes({ store, redis, queues, providers: env.PROVIDERS, requireUser: auth.requireUser, isAdmin: auth.isAdmin }),
    queueView.sessionRoutes,
  );
  // The public REST API, the OpenAI-compatible routes, the MCP server and the external history path, with an API key instead of a bearer token.
  const assertWithinSpendLimit = (key: StoredApiKey) => apiKeys.service.assertWithinSpendLimit(key);
  app.use(mcpRoutes({ tools: useCases.mcp, assertWithinSpendLimit, decisions: useCases.decisions, keyAccess: apiKeys.keyAccess, byteLimit, imageBody, logger }));
  app.use("/v1", openAiRoutes({ chat: useCases.chat, decisions: useCases.decisions, keyAccess: apiKeys.keyAccess, spendLimit: apiKeys.spendLimit, byteLimit, imageBody, logger }));
  app.use("/v1", v1Routes({ decisions: useCases.decisions, keyAccess: apiKeys.keyAccess, spendLimit: apiKeys.spendLimit, byteLimit, imageBody }));
  app.use("/v1", batchRoutes({ batches: useCases.batches, keyAccess: apiKeys.keyAccess, spendLimit: apiKeys.spendLimit, maxBytes: env.BATCH_MAX_BYTES }));
  app.use(keyHistoryRoutes(useCases.history, apiKeys.keyAccess));
  app.use(["/api", "/v1"], (_req, _res, next) => next(new HttpError(404, "Not found")));
  app.use(openApiRoutes());
  app.use(queueView.board);
  app.use(webAppRoutes(env.WEB_DIST));
  // Whatever no route and no page answered (another method, or no built web app): a JSON 404.
  app.use((_req, _res, next) => next(new HttpError(404, "Not found")));
  // Image-asset failures have their own shape, even for body and auth errors.
  app.use("/api/image-assets", imageAssetFailures(logger));
  app.use(errorHandler(logger));
  return app;
}
