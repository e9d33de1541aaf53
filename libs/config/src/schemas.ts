import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { DEFAULT_PROVIDER_IDS, ENSEMBLE_LIMITS, MARKETED_PROVIDER_IDS, ProviderIdSchema } from "@sd/contracts";
import { boolFromEnv, intFromEnv, optionalString } from "./load";

const providerList = (defaults: readonly string[]) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? defaults.join(",") : v),
    z
      .string()
      .transform((s) => [...new Set(s.split(",").map((p) => p.trim()).filter(Boolean))])
      .pipe(z.array(ProviderIdSchema).min(1, "name at least one provider")),
  );

/** The repository root, so defaults hold whichever folder a service is started from. */
const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Variables every service reads. */
export const commonEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  REDIS_URL: z.url().default("redis://127.0.0.1:6379"),
  /** Prefix of every BullMQ and Socket.IO key in Redis, so several deployments (or test runs) can share one Redis. */
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/).default("sd"),
  /**
   * The models a decision may ask (a request's panel is any subset) and the vote queues a worker
   * consumes: by default the playground's three and the eight marketed models (each simulated
   * without its API key).
   */
  PROVIDERS: providerList([...new Set([...DEFAULT_PROVIDER_IDS, ...MARKETED_PROVIDER_IDS])]),
  /** Latency of simulated answers, so the live rows can be watched in keyless mode. */
  SIMULATED_LATENCY_MS: intFromEnv(700),
  /** Attempts per vote, the first included (set on each job by the gateway); 429, 5xx and timeouts are retried. */
  VOTE_ATTEMPTS: intFromEnv(3, 1),
  /**
   * Whether webhook URLs may be plain http or reach loopback, private, link-local or metadata
   * addresses (checked at creation by the gateway and at delivery by the webhook worker). Unset:
   * allowed unless NODE_ENV=production; read it through `webhookAllowPrivateUrls`.
   */
  WEBHOOK_ALLOW_PRIVATE_URLS: z.preprocess(
    (v) => (v === undefined || v === "" ? undefined : String(v).toLowerCase()),
    z
      .enum(["true", "false", "1", "0", "yes", "no"])
      .transform((v) => v === "true" || v === "1" || v === "yes")
      .optional(),
  ),
});

/** WEBHOOK_ALLOW_PRIVATE_URLS, or its default: a production server refuses private webhook URLs, a developer's allows them. */
export function webhookAllowPrivateUrls(env: { NODE_ENV: string; WEBHOOK_ALLOW_PRIVATE_URLS?: boolean | undefined }): boolean {
  return env.WEBHOOK_ALLOW_PRIVATE_URLS ?? env.NODE_ENV !== "production";
}

/** Variables of the processes that open the store (gateway, aggregator). */
export const storeEnv = z.object({
  MONGO_URL: optionalString,
  DATA_DIR: z.string().default(`${ROOT}data`),
  /** Allow the embedded store in a process that is not the all-in-one one (a single host; each process sees only its own data). */
  EMBEDDED_STORE_SPLIT: boolFromEnv(false),
});

const commaList = optionalString.transform((v) => (v ? v.split(",").map((s) => s.trim()).filter(Boolean) : []));

/** Accounts: sign-in links, Google sign-in, sessions and admins (the gateway). */
const authEnv = {
  /**
   * The site's public base URL: magic links point at `${PUBLIC_URL}/auth/callback?token=...` and
   * Google redirects to `${PUBLIC_URL}/auth/callback`. Unset means http://127.0.0.1:<PORT>, or
   * http://<HOST>:<PORT> when HOST names one address (see `publicUrlOf`); never taken from the
   * request's Host header, which a client controls.
   */
  PUBLIC_URL: optionalString.pipe(
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL, e.g. https://smartdecision.example.com" })
      .transform((v) => v.replace(/\/+$/, ""))
      .optional(),
  ),
  /** HS256 key of access tokens; required in production, generated under DATA_DIR otherwise. */
  JWT_SECRET: optionalString.pipe(z.string().min(32, "use at least 32 characters (e.g. `openssl rand -base64 48`)").optional()),
  ACCESS_TOKEN_TTL_SECONDS: intFromEnv(900, 1),
  REFRESH_TOKEN_TTL_DAYS: intFromEnv(30, 1),
  MAGIC_LINK_TTL_SECONDS: intFromEnv(900, 1),
  /**
   * Sign-in links one email address may be sent per hour when asked from one IP address: what the
   * owner's own retries meet. A stranger's requests from elsewhere never use up the owner's count.
   */
  MAGIC_LINK_PER_EMAIL_AND_IP_PER_HOUR: intFromEnv(5, 1),
  /** Sign-in links one IP address may request per hour, whatever the addresses (one client spraying inboxes). */
  MAGIC_LINK_PER_IP_PER_HOUR: intFromEnv(20, 1),
  /**
   * Sign-in links one email address may be sent per hour from all IP addresses together: stops a
   * flood of one inbox from many IP addresses, and is out of one IP's reach (the per-email-and-IP
   * limit stops it first). An IP the account signed in from before is never refused by it.
   */
  MAGIC_LINK_PER_EMAIL_PER_HOUR: intFromEnv(50, 1),
  GOOGLE_ISSUER: z.url().default("https://accounts.google.com"),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** Comma-separated emails of admins (case-insensitive); nothing else makes anyone an admin. */
  ADMIN_EMAILS: commaList.transform((emails) => emails.map((e) => e.toLowerCase())),
  /**
   * Lets admins clean, retry and remove jobs on the queue board (/admin/queues). Off: the board only
   * shows. On, it still refuses any action on a job of a decision in flight.
   */
  QUEUE_BOARD_WRITABLE: boolFromEnv(false),
};

/** A base64 (or base64url) text that decodes to exactly 32 bytes. */
const BASE64_32_BYTES = /^(?:[A-Za-z0-9+/]{43}=?|[A-Za-z0-9_-]{43})$/;

/** API keys and the public REST API (the gateway). */
const apiKeyEnv = {
  /**
   * AES-256-GCM key (32 bytes, base64) encrypting stored API keys for their owners' reveal;
   * required in production, generated under DATA_DIR otherwise. Changing it makes existing keys
   * unrevealable (they keep working: calls find a key by its hash).
   */
  API_KEY_ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .regex(BASE64_32_BYTES, "must be 32 random bytes in base64 (e.g. `openssl rand -base64 32`)")
      .optional(),
  ),
  /** API requests per user per calendar month (UTC) through API keys; past it calls answer 429. */
  API_MONTHLY_QUOTA: intFromEnv(1000, 1),
  /** Requests per minute per API key (counted in Redis, so shared by every gateway replica). */
  API_KEY_RATE_LIMIT_PER_MINUTE: intFromEnv(60, 1),
  /** Largest body of POST /v1/batches (a JSONL file of up to 10,000 lines), in bytes; larger is answered 413. */
  BATCH_MAX_BYTES: intFromEnv(50 * 1024 * 1024, 1024),
  /** How often the gateway deletes batches (and their lines) past their 30 days. */
  BATCH_PURGE_INTERVAL_MS: intFromEnv(60 * 60_000, 1000),
};

export const gatewayEnv = commonEnv.extend(storeEnv.shape).extend({
  PORT: intFromEnv(3000),
  HOST: z.string().default("127.0.0.1"),
  /**
   * The gateway's /metrics (with /health and /ready), on HOST: a port of its own, so the public
   * port, and whatever exposes it, never shows the metrics. 9464 is the usual exporter port.
   */
  METRICS_PORT: intFromEnv(9464),
  /** How long an HTTP decision request waits for its final result. */
  DECISION_TIMEOUT_MS: intFromEnv(90_000, 1000),
  /**
   * Decisions one gateway process may have in flight (waiting for their result, or being queued).
   * Past it a new decision request is answered at once with 503 and `Retry-After`, instead of
   * joining a queue whose wait would only grow: under overload, the accepted decisions keep their
   * normal latency and the rest are told to come back. Unset: the vote slots of the process's
   * own workers when it runs them (see `inFlightLimit`), else DEFAULT_MAX_IN_FLIGHT_DECISIONS.
   */
  MAX_IN_FLIGHT_DECISIONS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).optional()),
  /** The `Retry-After` (seconds) of that 503. */
  OVERLOAD_RETRY_AFTER_SECONDS: intFromEnv(2, 1),
  /**
   * Decisions one batch (/v1/batches) keeps in flight. Unset: MAX_BATCH_IN_FLIGHT (one batch may
   * use the whole batch share; several share it).
   */
  BATCH_CONCURRENCY: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).optional()),
  /**
   * Batch decisions one gateway keeps in flight across all its batches. Unset: a quarter of the
   * in-flight limit (the vote slots, see `batchLimits`), so three quarters stay free for interactive
   * decisions, whose votes also go first (batch votes have a lower queue priority).
   */
  MAX_BATCH_IN_FLIGHT: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).optional()),
  /** Batches one gateway runs at once (the others wait for a slot, in the order they were accepted). */
  BATCH_RUNNERS: intFromEnv(4, 1),
  /** How long a killed gateway's batch stays locked before another run takes it back (BullMQ's stalled-job check). */
  BATCH_LOCK_MS: intFromEnv(30_000, 1000),
  /**
   * Total time a decision's votes may take, retries and vendors' Retry-After included: a model
   * still failing then is recorded as an error and the decision is made from the others. Unset
   * means half of DECISION_TIMEOUT_MS, at most 30 s (see `voteDeadlineMs`); must be below
   * DECISION_TIMEOUT_MS (the gateway checks at start).
   */
  VOTE_DEADLINE_MS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1000).optional()),
  /**
   * Life of a decision's images in Redis while its votes run (they are stored once there, by
   * reference, and deleted when the decision is written); must cover DECISION_TIMEOUT_MS plus the
   * retries of writing the decision (the gateway checks at start).
   */
  IMAGE_TTL_SECONDS: intFromEnv(3600, 1),
  /** Largest JSON body: three 10 MB images in base64 plus the question. */
  BODY_LIMIT_MB: intFromEnv(45, 1),
  /**
   * Longest a request may take to arrive, headers and body (not the wait for its answer): 120 s
   * lets a full 45 MB body through a 3 Mbit/s uplink, and bounds a client that drips bytes just
   * fast enough to dodge REQUEST_IDLE_TIMEOUT_MS. Past it the request is answered 408 and closed.
   */
  REQUEST_TIMEOUT_MS: intFromEnv(120_000, 100),
  /**
   * Longest a request's headers or body may stop arriving: a client that declares more than it
   * sends is answered 408 and closed after this long, while slow but steady uploads continue.
   */
  REQUEST_IDLE_TIMEOUT_MS: intFromEnv(20_000, 100),
  /** Comma-separated origins allowed by CORS; empty means same-origin only. */
  CORS_ORIGINS: optionalString.transform((v) => (v ? v.split(",").map((o) => o.trim()) : [])),
  /** Express `trust proxy` hops, so rate limits and user_ip see the client address behind a load balancer. */
  TRUST_PROXY: intFromEnv(0),
  /**
   * Largest Socket.IO message (or polling request) a client may send, in bytes; a larger one closes
   * its connection. The client's messages are a request id or an access token (under 5 KB), so a
   * client cannot make the gateway read and parse megabytes per message.
   */
  LIVE_SOCKET_MAX_MESSAGE_BYTES: intFromEnv(16_384, 1024),
  /**
   * Socket.IO connections one IP address may hold open on one gateway (a page holds up to three);
   * more are refused with a message saying so.
   */
  LIVE_SOCKET_MAX_CONNECTIONS_PER_IP: intFromEnv(100, 1),
  /**
   * Messages per second one Socket.IO connection may send, on average, and how many it may send at
   * once (the burst). A message over the rate is refused and dropped; a connection that keeps
   * sending while refused (a burst's worth) is disconnected.
   */
  LIVE_SOCKET_EVENTS_PER_SECOND: intFromEnv(10, 1),
  LIVE_SOCKET_EVENT_BURST: intFromEnv(30, 1),
  /** Requests per minute per IP on the public decision and suggestion endpoints. */
  RATE_LIMIT_PER_MINUTE: intFromEnv(30, 1),
  /**
   * Request-body megabytes per minute per IP on the decision endpoints (web and /v1), counted
   * with the requests: images are held in Redis while their decision runs, so one address may
   * not fill it. 100 MB is two decisions with three 10 MB images each, per minute.
   */
  RATE_LIMIT_MB_PER_MINUTE: intFromEnv(100, 1),
  /**
   * Longest a Redis command on the request path may take before the request answers 503 (Redis
   * hung). An unreachable Redis fails at once; a request never waits out an outage.
   */
  REDIS_COMMAND_TIMEOUT_MS: intFromEnv(2000, 100),
  /** Waitlist and job-application submissions per hour per IP. */
  FORMS_RATE_LIMIT_PER_HOUR: intFromEnv(20, 1),
  /** SMTP server for product mail, e.g. smtp://user:pass@smtp.example.com:587; unset in development logs mail instead. */
  SMTP_URL: optionalString,
  /** Sender of product mail. */
  MAIL_FROM: z.string().default("Smart Decision <no-reply@smartdecision.ai>"),
  /** Who is told about each job application. */
  HIRING_EMAIL: z.string().default("careers@smartdecision.ai"),
  /** The panel of a request that names none (the playground's three rows); each must be in PROVIDERS. */
  PANEL: providerList(DEFAULT_PROVIDER_IDS),
  /** The judge of `judge` mode when a request names none; must be in PROVIDERS. Unset: gpt5 when configured, else the panel's first. */
  JUDGE_PROVIDER: optionalString.pipe(ProviderIdSchema.optional()),
  /**
   * Weights of `weighted_voting`: `configured` takes each model's <ID>_WEIGHT; `learned` derives them
   * from each model's measured accuracy <ID>_ACCURACY with the log-odds rule ln(p(K-1)/(1-p)).
   */
  WEIGHTING: z.enum(["configured", "learned"]).default("configured"),
  /** Gossip rounds of a request that names none (the first included); at most 5. */
  GOSSIP_ROUNDS: intFromEnv(ENSEMBLE_LIMITS.defaultRounds, 1).pipe(z.number().max(ENSEMBLE_LIMITS.maxRounds)),
  /** Provider that answers suggestions (a fast model). */
  SUGGESTION_PROVIDER: ProviderIdSchema.default("gemini"),
  WEB_DIST: z.string().default(`${ROOT}web/dist`),
  ...authEnv,
  ...apiKeyEnv,
});
export type GatewayEnv = z.infer<typeof gatewayEnv>;

/** The in-flight limit of a gateway that cannot know the capacity of the workers behind it. */
export const DEFAULT_MAX_IN_FLIGHT_DECISIONS = 500;

/** Health, readiness and metrics port of the worker and aggregator processes. */
const healthPort = { HEALTH_PORT: intFromEnv(9090) };

export const workerEnv = commonEnv.extend({
  ...healthPort,
  /**
   * Model calls one worker process has in flight per provider queue. A slot spends its time waiting
   * for the model, so by Little's law a queue answers at most WORKER_CONCURRENCY / model latency
   * votes per second: 256 slots carry 200 decisions/s of 1.25 s models, 25/s of 10 s ones.
   */
  WORKER_CONCURRENCY: intFromEnv(256, 1),
  /** First retry delay; doubles each attempt unless the vendor sends Retry-After. */
  VOTE_BACKOFF_MS: intFromEnv(1000, 0),
  /** How long a job stays locked to a worker that stopped answering before another may take it. */
  JOB_LOCK_MS: intFromEnv(30_000, 1000),
});
export type WorkerEnv = z.infer<typeof workerEnv>;

export const aggregatorEnv = commonEnv.extend(storeEnv.shape).extend({
  ...healthPort,
  /**
   * Decisions tallied and written at once in this process. Writing waits on the store (the embedded
   * store's journal flush, MongoDB's round trip) and concurrent writes share a flush, so this stage
   * is sized for waiting too, not for the process's CPU.
   */
  AGGREGATOR_CONCURRENCY: intFromEnv(64, 1),
  JOB_LOCK_MS: intFromEnv(30_000, 1000),
});
export type AggregatorEnv = z.infer<typeof aggregatorEnv>;

/** The webhook delivery worker (a role of the all-in-one process, where the store is, or its own process on MongoDB). */
export const webhookWorkerEnv = commonEnv.extend(storeEnv.shape).extend({
  ...healthPort,
  /** Webhook deliveries in flight at once in this process; a slow receiver holds one slot until its timeout. */
  WEBHOOK_WORKER_CONCURRENCY: intFromEnv(10, 1),
  /** How long a delivery may take to connect to the receiver. */
  WEBHOOK_CONNECT_TIMEOUT_MS: intFromEnv(5_000, 100),
  /** How long a connected receiver may take to answer (headers and the first 4 KB of body); past it the attempt failed and is retried. */
  WEBHOOK_RESPONSE_TIMEOUT_MS: intFromEnv(10_000, 100),
  /**
   * Multiplies the retry schedule's delays (5 s, 5 min, … about a day in all). 1 in production; tests set a tiny
   * value to see retries at once. A receiver's Retry-After is honoured as sent.
   */
  WEBHOOK_RETRY_DELAY_SCALE: z.preprocess((v) => (v === undefined || v === "" ? undefined : v), z.coerce.number().min(0).max(1).default(1)),
});
export type WebhookWorkerEnv = z.infer<typeof webhookWorkerEnv>;

/** The all-in-one process reads every service's variables. */
export const allInOneEnv = gatewayEnv.extend(workerEnv.shape).extend(aggregatorEnv.shape).extend(webhookWorkerEnv.shape).extend({
  /**
   * Provider-worker processes `npm start` forks beside the gateway and aggregator: one event loop
   * per core, the first core left to the gateway. Default: cores - 1, at least 1. 0 runs the
   * workers in this process instead (the in-process test stacks, a one-core machine by choice).
   */
  WORKER_PROCESSES: intFromEnv(Math.max(1, availableParallelism() - 1), 0),
  /** Run the gateway, workers, aggregator and webhook delivery worker here (default all four). */
  ROLES: z
    .string()
    .default("gateway,provider-worker,aggregator,webhook-worker")
    .transform((s) => s.split(",").map((r) => r.trim()))
    .pipe(z.array(z.enum(["gateway", "provider-worker", "aggregator", "webhook-worker"])).min(1)),
});
export type AllInOneEnv = z.infer<typeof allInOneEnv>;

/**
 * The decisions a gateway admits at once. Each one holds a vote slot per panel model while its
 * models answer, so a process that runs the workers itself admits as many as their slots hold
 * (WORKER_CONCURRENCY per worker process); past that a decision would only queue for a slot.
 */
/**
 * A gateway's batch bounds: per batch (BATCH_CONCURRENCY) and in all (MAX_BATCH_IN_FLIGHT), apart
 * from the interactive in-flight limit `maxInFlight`; by default both a quarter of it.
 */
export function batchLimits(
  env: { BATCH_CONCURRENCY?: number | undefined; MAX_BATCH_IN_FLIGHT?: number | undefined },
  maxInFlight: number,
): { perBatch: number; total: number } {
  const total = env.MAX_BATCH_IN_FLIGHT ?? Math.max(1, Math.floor(maxInFlight / 4));
  return { perBatch: Math.min(total, env.BATCH_CONCURRENCY ?? total), total };
}

export function inFlightLimit(env: { MAX_IN_FLIGHT_DECISIONS?: number | undefined }, voteSlots: number | null): number {
  return env.MAX_IN_FLIGHT_DECISIONS ?? voteSlots ?? DEFAULT_MAX_IN_FLIGHT_DECISIONS;
}
