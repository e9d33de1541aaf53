import { randomBytes, randomUUID } from "node:crypto";
import { testEnv } from "@sd/testing/env";
import { testDataDir } from "@sd/testing/leftovers";
import type { BenchOptions } from "./options";

/** Limits far above anything a run sends, so a limit is never what is measured. */
const UNLIMITED = "1000000";

/**
 * testEnv's timings shorten what production waits for (lock renewals every second, 50 ms retry
 * backoff, a 20 s decision timeout): removed, so the product runs on its own defaults.
 */
const TEST_SHORTENINGS = ["JOB_LOCK_MS", "VOTE_BACKOFF_MS", "DECISION_TIMEOUT_MS", "VOTE_DEADLINE_MS"] as const;

/**
 * The environment of one deployment under test: testEnv's wiring (its own QUEUE_PREFIX and
 * DATA_DIR, the three playground models pointed at the emulator) with production settings:
 * NODE_ENV=production (so its secrets are given, as production requires), the product's default
 * timings, provider timeouts of 20 s, and rate limits and quotas out of the way.
 */
export function productEnv(emulatorUrl: string, options: BenchOptions, extra: Record<string, string> = {}): Record<string, string> {
  const env = testEnv(emulatorUrl, {
    NODE_ENV: "production",
    LOG_LEVEL: options.logLevel,
    REDIS_URL: options.redisUrl,
    QUEUE_PREFIX: `sdbench-${randomUUID().slice(0, 8)}`,
    JWT_SECRET: randomBytes(48).toString("base64"),
    API_KEY_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    // Only sign-in links use it; the benchmark reads the token out of the link.
    PUBLIC_URL: "http://127.0.0.1",
    WORKER_CONCURRENCY: String(options.workerConcurrency),
    AGGREGATOR_CONCURRENCY: String(options.workerConcurrency),
    OPENAI_TIMEOUT_MS: "20000",
    GEMINI_TIMEOUT_MS: "20000",
    CLAUDE_TIMEOUT_MS: "20000",
    RATE_LIMIT_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_MB_PER_MINUTE: UNLIMITED,
    API_MONTHLY_QUOTA: UNLIMITED,
    API_KEY_RATE_LIMIT_PER_MINUTE: UNLIMITED,
    // An operator's MongoDB, when given, serves every variant (the split one needs no embedded-store opt-in then).
    ...(process.env.MONGO_URL ? { MONGO_URL: process.env.MONGO_URL } : {}),
    ...extra,
  });
  for (const name of TEST_SHORTENINGS) delete env[name];
  return env;
}

/** How the product was configured, for the header. */
export function describeProductEnv(options: BenchOptions): string {
  return (
    `NODE_ENV=production, LOG_LEVEL=${options.logLevel}, ${TEST_SHORTENINGS.join("/")} at the product's defaults, ` +
    `WORKER_CONCURRENCY=AGGREGATOR_CONCURRENCY=${options.workerConcurrency}, provider timeouts 20 s, rate limits and quotas ${UNLIMITED}`
  );
}

/**
 * The capacity part's product: started as `npm start` starts it for a user (no API key, so its
 * built-in emulator answers; NODE_ENV, LOG_LEVEL, concurrency and limits at their defaults), with
 * only what a load test must change: the per-IP limits (one load generator is one IP), a Redis
 * prefix and data directory of its own, and the simulated models' latency. startDeployment adds a PORT.
 */
export function userStartEnv(options: BenchOptions, simulatedLatencyMs: number): Record<string, string> {
  return {
    RATE_LIMIT_PER_MINUTE: UNLIMITED,
    RATE_LIMIT_MB_PER_MINUTE: UNLIMITED,
    QUEUE_PREFIX: `sdbench-${randomUUID().slice(0, 8)}`,
    DATA_DIR: testDataDir(),
    SIMULATED_LATENCY_MS: String(simulatedLatencyMs),
    REDIS_URL: options.redisUrl,
  };
}
