import { createServer } from "node:http";
import { ConfigError, batchLimits, inFlightLimit, webhookAllowPrivateUrls, type GatewayEnv } from "@sd/config";
import { toDecisionResponse, type ProviderConfig } from "@sd/contracts";
import { LiveEvents, VoteFeed, attachLiveSocket } from "@sd/live";
import { createProvider } from "@sd/providers";
import {
  AGGREGATE_RETRY_WINDOW_MS,
  ApiKeyUsage,
  BatchQueue,
  CallCancels,
  WebhookDispatch,
  createBatchWorker,
  DecisionFlow,
  ImageStash,
  QueueInspector,
  ThroughputReader,
  createRedis,
  createRequestRedis,
  whenReady,
  type Redis,
} from "@sd/queue";
import { closeServer, serverUrl, startHealthServer, storeReadiness } from "@sd/runtime";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { createApiKeys, MonthlyQuota, type ApiKeyService } from "./api-keys";
import { secondsUntilNextMonth } from "./api-keys/middleware";
import { queueView as createQueueView } from "./admin-queues";
import { createApp } from "./app";
import { recordQueueDepths } from "./routes/health";
import { createAuth, resolveJwtSecret } from "./auth";
import { resolveApiKeyEncryptionKey } from "./auth/secrets";
import { createMailer } from "./mail/mailer";
import { closeStalledBodies, requestTimeoutOptions } from "./http/request-timeouts";
import { DecisionService, voteDeadlineMs } from "./decision-service";
import { BatchRunner } from "./batches/batch-runner";
import { EnsembleDefaults } from "./ensemble-options";
import { createUseCases, type UseCases } from "./use-cases";
import { providersResponse } from "./routes/providers";

export interface Gateway {
  url: string;
  /** Where /health, /ready and /metrics answer: METRICS_PORT, apart from the public port. */
  metricsUrl: string;
  /** Stops accepting connections, then closes queues and Redis. */
  close(): Promise<void>;
}

export interface GatewayProviders {
  /** The models a decision asks (for display: labels, and whether they are simulated). */
  deciders: readonly ProviderConfig[];
  /** The fast model that answers suggestions. */
  suggester: ProviderConfig;
}

/** A decision's images must outlive the wait for its result and the retries of writing it. */
function assertImageTtlCoversDecisions(env: GatewayEnv): void {
  const minimum = Math.ceil((env.DECISION_TIMEOUT_MS + AGGREGATE_RETRY_WINDOW_MS) / 1000);
  if (env.IMAGE_TTL_SECONDS < minimum) {
    throw new ConfigError(
      `IMAGE_TTL_SECONDS: must be at least ${minimum} (DECISION_TIMEOUT_MS plus the retries of writing a decision), so a decision's images outlive its votes`,
    );
  }
}

/** The longest the gateway waits for Redis to store a decision's images (see REDIS_COMMAND_TIMEOUT_MS). */
const IMAGE_WRITE_TIMEOUT_MS = 10_000;

/** Logs an outage once when it starts and once when Redis is back (ioredis reports every reconnect attempt). */
function logRedisOutages(redis: Redis, logger: Logger): void {
  let down = false;
  redis.on("error", (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ err: error }, "Redis is unreachable: requests that need it answer 503 until it is back");
  });
  redis.on("ready", () => {
    if (!down) return;
    down = false;
    logger.info("Redis is reachable again");
  });
}

/**
 * Deletes the batches past their 30 days now and every `intervalMs` (the embedded store has no TTL
 * index). Returns a function that stops it.
 */
function purgeExpiredBatches(batches: UseCases["batches"], intervalMs: number, logger: Logger): () => void {
  let running = false;
  const purge = async () => {
    if (running) return;
    running = true;
    try {
      const purged = await batches.purgeExpired();
      if (purged.batches + purged.lines > 0) logger.info(purged, "deleted expired batches");
    } catch (error) {
      logger.warn({ err: error }, "could not delete expired batches; trying again later");
    } finally {
      running = false;
    }
  };
  void purge();
  const timer = setInterval(() => void purge(), intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Deletes webhook delivery log rows past their 30 days now and every hour. Returns a function that stops it. */
function purgeOldWebhookDeliveries(webhooks: UseCases["webhooks"], logger: Logger): () => void {
  const purge = () =>
    webhooks
      .purgeOldDeliveries()
      .then((deleted) => {
        if (deleted > 0) logger.info({ deleted }, "deleted webhook deliveries past their 30 days");
      })
      .catch((error: unknown) => logger.warn({ err: error }, "could not delete old webhook deliveries; trying again later"));
  void purge();
  const timer = setInterval(() => void purge(), 60 * 60_000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * How long the runner waits for a batch line's decision before it looks again, and the vote
 * deadline of a batch line: far longer than an interactive one's, since its votes may wait behind
 * interactive traffic (a deadline that ran out in the queue would record them as errors), yet
 * within the life of its images in Redis (IMAGE_TTL_SECONDS) and never shorter than VOTE_DEADLINE_MS.
 */
function batchTimings(env: GatewayEnv, interactiveDeadlineMs: number): { waitMs: number; voteDeadlineMs: number } {
  const waitMs = Math.max(env.DECISION_TIMEOUT_MS, 10 * 60_000);
  const margin = AGGREGATE_RETRY_WINDOW_MS + 60_000;
  return { waitMs, voteDeadlineMs: Math.max(interactiveDeadlineMs, Math.min(waitMs, env.IMAGE_TTL_SECONDS * 1000) - margin) };
}

/**
 * Runs accepted batches in this gateway (DecisionService lives here): a worker on the batch queue,
 * and, at start, every unfinished batch started again (its job id is the batch id, so a batch whose
 * job is still there is not added twice; one left by a killed gateway is taken back by BullMQ's
 * stalled-job check). Returns a function that stops it.
 */
function runBatches(
  env: GatewayEnv,
  deps: {
    store: Store;
    decisions: DecisionService;
    live: LiveEvents;
    batchQueue: BatchQueue;
    webhooks: WebhookDispatch;
    redis: Redis;
    logger: Logger;
    apiKeys: ApiKeyService;
  },
): () => Promise<void> {
  const { store, decisions, live, batchQueue, webhooks, redis, apiKeys } = deps;
  const logger = deps.logger.child({ component: "batches" });
  const limits = batchLimits(env, inFlightLimit(env, null));
  const runner = new BatchRunner({
    store,
    decisions,
    progress: (userId, event) => live.batchProgress(userId, event),
    webhooks,
    // Read for each line: a limit the owner sets or raises mid-batch applies to the lines not yet started.
    assertWithinSpendLimit: async (apiKeyId, userId) => {
      const key = await store.apiKeys.findOwned(apiKeyId, userId);
      if (key) await apiKeys.assertWithinSpendLimit(key);
    },
    perBatch: limits.perBatch,
    total: limits.total,
    // A batch line may queue behind interactive traffic: look again after this, rather than give up.
    waitMs: batchTimings(env, voteDeadlineMs(env)).waitMs,
    logger,
  });
  const worker = createBatchWorker((batchId, signal) => runner.run(batchId, signal), {
    connection: redis,
    prefix: env.QUEUE_PREFIX,
    concurrency: env.BATCH_RUNNERS,
    lockMs: env.BATCH_LOCK_MS,
    onError: (error) => logger.warn({ err: error }, "batch worker error"),
  });
  void store.batches
    .listUnfinished()
    .then((batches) => Promise.all(batches.map((batch) => batchQueue.start(batch.id))))
    .catch((error: unknown) => logger.warn({ err: error }, "could not restart the unfinished batches; they start with the next gateway"));
  return () => worker.close();
}

export async function startGateway(env: GatewayEnv, store: Store, providers: GatewayProviders, logger: Logger): Promise<Gateway> {
  assertImageTtlCoversDecisions(env);
  const ensemble = new EnsembleDefaults(providers.deciders, env);
  const voteDeadline = voteDeadlineMs(env);
  // First, so a missing production secret stops the start before any connection is opened.
  const jwtSecret = await resolveJwtSecret(env);
  const apiKeyEncryptionKey = await resolveApiKeyEncryptionKey(env);
  // The request path fails fast while Redis is away (a 503 in about a second, not a hang)...
  const redis = createRequestRedis(env.REDIS_URL, "gateway", env.REDIS_COMMAND_TIMEOUT_MS);
  logRedisOutages(redis, logger);
  // Writing a decision's images (up to 40 MB) may take longer than any other command on a busy
  // Redis: their own connection, failing as fast when Redis is unreachable, waits longer for a reply.
  const imageRedis = createRequestRedis(env.REDIS_URL, "gateway-images", Math.max(env.REDIS_COMMAND_TIMEOUT_MS, IMAGE_WRITE_TIMEOUT_MS));
  imageRedis.on("error", () => undefined); // an outage is logged once, by the connection above
  // ...while live progress waits for it: an event published during a blip is late, not lost.
  const liveRedis = createRedis(env.REDIS_URL, "gateway-live");
  const flow = new DecisionFlow(redis, env.QUEUE_PREFIX, env.VOTE_ATTEMPTS);
  const liveEvents = new LiveEvents(liveRedis, env.QUEUE_PREFIX);
  // Its own connection: a subscribed connection can do nothing else.
  const voteFeed = new VoteFeed(createRedis(env.REDIS_URL, "gateway-votes"), env.QUEUE_PREFIX);
  // Listen only once both answer: the first requests must not meet a connection still opening.
  await Promise.all([whenReady(redis), whenReady(imageRedis), flow.ready(), voteFeed.start()]);
  // Each provider's requests per minute, so system health can tell a queue at its limit (see rate_limits).
  const rpm = Object.fromEntries(providers.deciders.map((config) => [config.id, config.rpm]));
  const queues = new QueueInspector(redis, env.QUEUE_PREFIX, env.PROVIDERS, rpm);
  const throughputReader = new ThroughputReader(redis, env.QUEUE_PREFIX, env.PROVIDERS, queues);
  const decisions = new DecisionService({
    flow,
    images: new ImageStash(imageRedis, env.QUEUE_PREFIX),
    live: liveEvents,
    redis,
    findStored: async (decisionId) => {
      const stored = await store.decisions.findById(decisionId);
      return stored ? toDecisionResponse(stored) : null;
    },
    ensemble,
    timeoutMs: env.DECISION_TIMEOUT_MS,
    voteDeadlineMs: voteDeadline,
    batchVoteDeadlineMs: batchTimings(env, voteDeadline).voteDeadlineMs,
    imageTtlSeconds: env.IMAGE_TTL_SECONDS,
    storeRefusal: () => store.storage.refusal(),
    maxInFlight: inFlightLimit(env, null),
    maxBatchInFlight: batchLimits(env, inFlightLimit(env, null)).total,
    overloadRetryAfterSeconds: env.OVERLOAD_RETRY_AFTER_SECONDS,
    cancels: new CallCancels(redis, env.QUEUE_PREFIX),
  });
  const mailer = createMailer(env, logger);
  const auth = createAuth({ env, store, redis, mailer, logger, jwtSecret, endSessionSockets: (sessionId) => liveEvents.endSession(sessionId) });
  const apiKeys = createApiKeys({
    env,
    store,
    redis,
    logger,
    encryptionKey: apiKeyEncryptionKey,
    requireUser: auth.requireUser,
    perUserLimit: auth.perUserLimit,
  });
  const queueView = createQueueView({
    redis,
    prefix: env.QUEUE_PREFIX,
    providers: env.PROVIDERS,
    jwtSecret,
    requireUser: auth.requireUser,
    isAdmin: (email) => auth.isAdmin(email),
    // The queue view re-checks the sign-in session on every request.
    sessionEnded: (sessionId) => auth.isSessionEnded(sessionId),
    writable: env.QUEUE_BOARD_WRITABLE,
  });
  const ready = async () => (await Promise.all([redis.ping(), storeReadiness(store)]))[1];
  // Starts an accepted batch: one job per batch, which a gateway's batch runner takes.
  const batchQueue = new BatchQueue(redis, env.QUEUE_PREFIX);
  // Webhook deliveries (test events, resends, and events this gateway emits) go on their own queue.
  const webhookDispatch = new WebhookDispatch(redis, env.QUEUE_PREFIX, store.webhookEndpoints);
  const useCases = createUseCases({
    store,
    decisions,
    idempotency: apiKeys.idempotency,
    votes: voteFeed,
    providers: providersResponse(providers.deciders, decisions.ensembleDefaults),
    batches: {
      // The same counters as the key's access check (one per user and month in Redis).
      quota: new MonthlyQuota(redis, env.QUEUE_PREFIX, env.API_MONTHLY_QUOTA),
      keyUsage: new ApiKeyUsage(redis, env.QUEUE_PREFIX),
      secondsUntilNextMonth,
      runner: batchQueue,
    },
    webhooks: { dispatch: webhookDispatch, allowPrivateUrls: webhookAllowPrivateUrls(env) },
  });
  const stopWebhookPurge = purgeOldWebhookDeliveries(useCases.webhooks, logger);
  const stopBatchPurge = purgeExpiredBatches(useCases.batches, env.BATCH_PURGE_INTERVAL_MS, logger);
  const stopBatches = runBatches(env, { store, decisions, live: liveEvents, batchQueue, webhooks: webhookDispatch, redis, logger, apiKeys: apiKeys.service });
  const app = createApp({
    env,
    logger,
    redis,
    decisions,
    useCases,
    suggester: createProvider(providers.suggester),
    deciders: providers.deciders,
    store,
    mailer,
    auth,
    apiKeys,
    queueView,
    queues,
    ready,
  });
  // Bodies that stop arriving are cut in seconds, not Node's default 300 s (see request-timeouts).
  const timeouts = { totalMs: env.REQUEST_TIMEOUT_MS, idleMs: env.REQUEST_IDLE_TIMEOUT_MS };
  const http = createServer(requestTimeoutOptions(timeouts), app);
  closeStalledBodies(http, timeouts.idleMs);
  const live = attachLiveSocket(http, {
    redis: liveRedis,
    prefix: env.QUEUE_PREFIX,
    corsOrigins: env.CORS_ORIGINS,
    verifyAccessToken: (token) => auth.verifyAccessToken(token),
    limits: {
      maxMessageBytes: env.LIVE_SOCKET_MAX_MESSAGE_BYTES,
      maxConnectionsPerIp: env.LIVE_SOCKET_MAX_CONNECTIONS_PER_IP,
      eventsPerSecond: env.LIVE_SOCKET_EVENTS_PER_SECOND,
      eventBurst: env.LIVE_SOCKET_EVENT_BURST,
      trustProxyHops: env.TRUST_PROXY,
    },
    admin: {
      isAdmin: (email) => auth.isAdmin(email),
      throughput: () => throughputReader.read(),
      onError: (error) => logger.warn({ err: error }, "could not read the live throughput figures"),
    },
  });
  // A socket that connects must hear every event published from then on.
  await live.ready();
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(env.PORT, env.HOST, resolve);
  });
  const url = serverUrl(http, env.HOST);
  // Prometheus scrapes its own port, which an Ingress or a load balancer in front of PORT does not expose.
  const metrics = await startHealthServer(env.METRICS_PORT, ready, env.HOST, {
    beforeMetrics: () => recordQueueDepths(queues, env.QUEUE_PREFIX),
  }).catch((error: unknown) => {
    http.close();
    throw error;
  });
  const metricsUrl = serverUrl(metrics, env.HOST);
  logger.info({ url, metrics_url: metricsUrl }, "gateway listening");
  return {
    url,
    metricsUrl,
    async close() {
      // No new connections; the requests already accepted get their decisions (the workers and
      // the aggregator, here or elsewhere, are still running), within the wait they were promised.
      http.close();
      http.closeIdleConnections();
      stopBatchPurge();
      stopWebhookPurge();
      // Before the flow closes: the runners stop feeding lines and leave theirs to the next run.
      await stopBatches();
      await flow.drain(env.DECISION_TIMEOUT_MS);
      await live.close();
      await Promise.all([flow.close(), queues.close(), queueView.close(), batchQueue.close(), webhookDispatch.close()]);
      redis.disconnect();
      imageRedis.disconnect();
      liveRedis.disconnect();
      voteFeed.close();
      // Last, so the drain above can still be watched.
      await closeServer(metrics);
    },
  };
}
