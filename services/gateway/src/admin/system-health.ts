import { AGGREGATE_QUEUE, PERIOD_HOURS, voteQueueName, type AdminPeriod, type HealthCheck, type HealthStatus, type SystemHealth } from "@sd/contracts";
import type { QueueActivity, QueueInspector, RateLimitState, Redis } from "@sd/queue";
import { damageSummary } from "@sd/runtime";
import type { HealthFigures, Store } from "@sd/store";

/**
 * Thresholds of system health (the README's table lists each check); the overall status is the
 * worst check's. rate_limits is never critical and activity always healthy: waiting votes and a
 * quiet hour are normal, and a stalled pipeline already shows in workers, queue_backlog and queue_age.
 */
export const HEALTH_THRESHOLDS = {
  PROBE_TIMEOUT_MS: 2_000,
  BACKLOG_WARNING: 20,
  BACKLOG_CRITICAL: 200,
  AGE_WARNING_MS: 30_000,
  AGE_CRITICAL_MS: 120_000,
  ERROR_RATE_WARNING: 10,
  ERROR_RATE_CRITICAL: 50,
} as const;

const RANK: Record<HealthStatus, number> = { healthy: 0, warning: 1, critical: 2 };
const worst = (statuses: HealthStatus[]): HealthStatus => statuses.reduce((a, b) => (RANK[b] > RANK[a] ? b : a), "healthy");
const level = (value: number, warning: number, critical: number): HealthStatus =>
  value >= critical ? "critical" : value >= warning ? "warning" : "healthy";

class ProbeTimeout extends Error {}

/** A probe that answers within the timeout, or fails: an outage must not hang the health page. */
async function bounded<T>(probe: () => Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(`${what} did not answer within ${HEALTH_THRESHOLDS.PROBE_TIMEOUT_MS} ms`)), HEALTH_THRESHOLDS.PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The value is the live workers of the required queues, the sum of the per-queue counts the message
 * lists: one count behind both, so the dashboard never shows "Workers 0" beside "Every queue has a live worker".
 */
function workersCheck(required: readonly string[], queues: Record<string, QueueActivity>): HealthCheck {
  const perQueue = required.map((name) => [name, queues[name]?.workers ?? 0] as const);
  const live = perQueue.reduce((sum, [, workers]) => sum + workers, 0);
  const listed = perQueue.map(([name, workers]) => `${name}: ${workers}`).join(", ");
  const idle = perQueue.filter(([, workers]) => workers === 0).map(([name]) => name);
  return idle.length > 0
    ? { status: "critical", value: live, message: `No live worker for ${idle.join(", ")} (${listed})` }
    : { status: "healthy", value: live, message: `Every queue has a live worker (${listed})` };
}

/** Names each provider whose vote queue its rate limiter holds, why, and the seconds left. */
function rateLimitCheck(providers: readonly string[], queues: Record<string, QueueActivity>): HealthCheck {
  const held = providers
    .map((provider) => [provider, queues[voteQueueName(provider)]?.rateLimit ?? null] as const)
    .filter((entry): entry is readonly [string, RateLimitState] => entry[1] !== null);
  if (held.length === 0) return { status: "healthy", value: 0, message: "No provider is rate-limited" };
  const described = held.map(([provider, state]) => {
    const seconds = Math.ceil(state.msLeft / 1000);
    return state.cause === "paused"
      ? `${provider} paused (the vendor's Retry-After, or its <ID>_TPM spent) for ${seconds} s more`
      : `${provider} used up its ${state.max} requests per minute, ${seconds} s left in the window`;
  });
  return { status: "warning", value: held.length, message: `Rate-limited: ${described.join("; ")}` };
}

const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The measured facts system health is judged on. */
export interface HealthFacts {
  period: AdminPeriod;
  now: Date;
  /** null when the store answered; else why not. */
  storeError: string | null;
  redisError: string | null;
  /** Per queue name; null when Redis could not be read. */
  queues: Record<string, QueueActivity> | null;
  /** The queues that must have a worker: each provider's vote queue and the aggregate queue. */
  requiredQueues: string[];
  /** The configured providers, whose vote queues may be rate-limited. */
  providers: readonly string[];
  figures: HealthFigures;
  /** The embedded store's disk (absent for MongoDB): why it cannot write, and the damage files not acknowledged. */
  storage?: { unwritable: string | null; damage: string[] };
}

/** Judges the facts: each check with its status, value and message; the worst one is the status. */
export function evaluateHealth(facts: HealthFacts): SystemHealth {
  const checks: Record<string, HealthCheck> = {};
  checks.database = facts.storeError
    ? { status: "critical", value: false, message: `Database unreachable: ${facts.storeError}` }
    : { status: "healthy", value: true, message: "Database reachable" };
  checks.redis = facts.redisError
    ? { status: "critical", value: false, message: `Redis unreachable: ${facts.redisError}` }
    : { status: "healthy", value: true, message: "Redis reachable" };

  if (facts.queues === null) {
    const unknown = { status: "critical", value: null, message: "Unknown: Redis could not be read" } as const;
    checks.workers = unknown;
    checks.queue_backlog = unknown;
    checks.queue_age = unknown;
    checks.rate_limits = unknown;
  } else {
    const queues = facts.queues;
    checks.workers = workersCheck(facts.requiredQueues, queues);

    const [fullest, fullestActivity] = Object.entries(queues).sort((a, b) => b[1].waiting - a[1].waiting)[0] ?? ["", undefined];
    const backlog = fullestActivity?.waiting ?? 0;
    checks.queue_backlog = {
      status: level(backlog, HEALTH_THRESHOLDS.BACKLOG_WARNING, HEALTH_THRESHOLDS.BACKLOG_CRITICAL),
      value: backlog,
      message: backlog === 0 ? "No job waiting" : `${backlog} jobs waiting in ${fullest}`,
    };

    const [oldestQueue, oldestMs] = Object.entries(queues)
      .map(([name, activity]) => [name, activity.oldestWaitingMs] as const)
      .filter((entry): entry is readonly [string, number] => entry[1] !== null)
      .sort((a, b) => b[1] - a[1])[0] ?? ["", null];
    checks.queue_age = oldestMs === null
      ? { status: "healthy", value: null, message: "No job waiting" }
      : {
          status: oldestMs > HEALTH_THRESHOLDS.AGE_CRITICAL_MS ? "critical" : oldestMs > HEALTH_THRESHOLDS.AGE_WARNING_MS ? "warning" : "healthy",
          value: Math.round(oldestMs / 1000),
          message: `The oldest waiting job in ${oldestQueue} has waited ${Math.round(oldestMs / 1000)} s`,
        };

    checks.rate_limits = rateLimitCheck(facts.providers, queues);
  }

  const { figures } = facts;
  const errorRate = figures.decisions_in_period === 0 ? 0 : Math.round((figures.decisions_with_errors / figures.decisions_in_period) * 10_000) / 100;
  checks.error_rate = {
    status: level(errorRate, HEALTH_THRESHOLDS.ERROR_RATE_WARNING, HEALTH_THRESHOLDS.ERROR_RATE_CRITICAL),
    value: errorRate,
    message: `${figures.decisions_with_errors} of ${figures.decisions_in_period} decisions in the period had a model error (${errorRate}%)`,
  };
  checks.activity = {
    status: "healthy",
    value: figures.decisions_last_hour,
    message: figures.decisions_last_hour === 0 ? "No decisions in the last hour" : `${figures.decisions_last_hour} decisions in the last hour`,
  };
  if (facts.storage) checks.storage = storageCheck(facts.storage);

  return {
    status: worst(Object.values(checks).map((check) => check.status)),
    timestamp: facts.now.toISOString(),
    period: facts.period,
    period_hours: PERIOD_HOURS[facts.period],
    metrics: {
      decisions_in_period: figures.decisions_in_period,
      decisions_last_hour: figures.decisions_last_hour,
      avg_processing_time_ms: figures.avg_processing_time_ms,
    },
    health_checks: checks,
  };
}

function storageCheck({ unwritable, damage }: NonNullable<HealthFacts["storage"]>): HealthCheck {
  if (unwritable) return { status: "critical", value: damage.length, message: `The store cannot write (${unwritable}): decisions are refused until there is room` };
  if (damage.length > 0) return { status: "warning", value: damage.length, message: `Degraded: ${damageSummary(damage)}` };
  return { status: "healthy", value: 0, message: "Writes fit and no journal damage waits to be acknowledged" };
}

export interface HealthSources {
  store: Store;
  redis: Redis;
  queues: QueueInspector;
  /** The configured providers (each needs a worker on its vote queue). */
  providers: readonly string[];
}

const NO_FIGURES: HealthFigures = { decisions_in_period: 0, decisions_last_hour: 0, decisions_with_errors: 0, avg_processing_time_ms: 0 };

/** Measures every fact at once, each probe bounded, and judges them. */
export async function measureHealth(sources: HealthSources, period: AdminPeriod, now = new Date()): Promise<SystemHealth> {
  const [store, redis, queues, figures, damage] = await Promise.allSettled([
    bounded(() => sources.store.ping(), "The database"),
    bounded(() => sources.redis.ping(), "Redis"),
    bounded(() => sources.queues.activity(now.getTime()), "Redis"),
    bounded(() => sources.store.decisions.healthFigures({ period, now }), "The database"),
    bounded(() => sources.store.storage.damage(), "The data directory"),
  ]);
  const embedded = sources.store.driver === "embedded";
  return evaluateHealth({
    period,
    now,
    storeError: store.status === "rejected" ? failure(store.reason) : figures.status === "rejected" ? failure(figures.reason) : null,
    redisError: redis.status === "rejected" ? failure(redis.reason) : null,
    queues: queues.status === "fulfilled" ? queues.value : null,
    requiredQueues: [...sources.providers.map(voteQueueName), AGGREGATE_QUEUE],
    providers: sources.providers,
    figures: figures.status === "fulfilled" ? figures.value : NO_FIGURES,
    storage: embedded
      ? { unwritable: sources.store.storage.refusal()?.reason ?? null, damage: damage.status === "fulfilled" ? damage.value : [] }
      : undefined,
  });
}
