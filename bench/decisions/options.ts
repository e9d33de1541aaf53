import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { boolFromEnv, loadEnv, optionalString } from "@sd/config";

/** The two ways an operator runs the product that the benchmark compares. */
export const VARIANTS = ["one", "split"] as const;
export type Variant = (typeof VARIANTS)[number];

/**
 * The parts of a run: "overhead" is the product against the direct baseline (the variants, the /v1
 * part and the targets of issue 12); "capacity" the product as `npm start` runs it, on its defaults
 * (capacity-phases.ts).
 */
export const PARTS = ["overhead", "capacity"] as const;
export type Part = (typeof PARTS)[number];

/** The emulator's vendors, as its rules name them, by our provider id. */
export const VENDOR_OF = { openai: "openai", gemini: "gemini", claude: "anthropic" } as const;
export type BenchProvider = keyof typeof VENDOR_OF;

/** A whole number from the environment, unset or empty meaning "the default the options derive". */
const count = (min = 1) => z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(min).optional());

/** A comma-separated choice among `values`, all of them when unset. */
const someOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z
    .string()
    .default(values.join(","))
    .transform((s) => [...new Set(s.split(",").map((v) => v.trim()).filter(Boolean))])
    .pipe(z.array(z.enum(values)).min(1));

const BenchEnvSchema = z.object({
  BENCH_N: count(),
  BENCH_C: count(),
  BENCH_LATENCY_MS: count(0),
  BENCH_RAMP_MS: count(0),
  BENCH_WARMUP: count(0),
  BENCH_SAT_C: count(),
  BENCH_SAT_N: count(),
  BENCH_OVERLOAD_C: count(),
  BENCH_OVERLOAD_N: count(),
  BENCH_MAX_IN_FLIGHT: count(),
  BENCH_WORKER_CONCURRENCY: count(),
  BENCH_CHECKS: count(),
  BENCH_ROUNDS: count(),
  BENCH_EQ_N: count(),
  BENCH_CENSUS_N: count(0),
  BENCH_IMAGES_N: count(0),
  BENCH_IMAGE_MB: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().min(1).max(9).optional()),
  BENCH_EQ_LATENCIES: z
    .string()
    .default("openai=150,gemini=300,claude=600")
    .transform((text, ctx) => {
      const entries = text.split(",").map((part) => part.trim().split("="));
      const latencies: Partial<Record<BenchProvider, number>> = {};
      for (const [id, ms] of entries) {
        if (!id || !(id in VENDOR_OF) || ms === undefined || !/^\d+$/.test(ms)) {
          ctx.addIssue({ code: "custom", message: "write it as openai=150,gemini=300,claude=600 (milliseconds per model)" });
          return z.NEVER;
        }
        latencies[id as BenchProvider] = Number(ms);
      }
      if (Object.keys(latencies).length !== 3) {
        ctx.addIssue({ code: "custom", message: "give a latency to each of openai, gemini and claude" });
        return z.NEVER;
      }
      return latencies as Record<BenchProvider, number>;
    }),
  BENCH_PARTS: someOf(PARTS),
  BENCH_CAPACITY_SECONDS: count(),
  BENCH_CAPACITY_N: count(),
  BENCH_CAPACITY_WARMUP_SECONDS: count(0),
  BENCH_VARIANTS: someOf(VARIANTS),
  BENCH_PROFILE: boolFromEnv(false),
  BENCH_PROFILE_DIR: optionalString,
  /** A redis-server of the benchmark's own (exact command counts and Redis CPU) instead of the one at REDIS_URL. */
  BENCH_PRIVATE_REDIS: boolFromEnv(false),
  REDIS_URL: z.url().default("redis://127.0.0.1:6379"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("warn"),
});

export interface BenchOptions {
  /** Decisions per row of the latency table, and of each /v1 row. */
  n: number;
  /** Concurrency of the latency table and the /v1 rows. */
  c: number;
  /** Every model's emulated answer time. */
  latencyMs: number;
  /**
   * The latency phases' users (the C=20 table, the /v1 rows, early quorum) join one by one over
   * this many ms; 0: all at once, as the saturation and overload phases always start (why: the
   * header of decisions.ts).
   */
  rampMs: number;
  /** Decisions each product start makes before anything is measured (connections, JIT, queues). */
  warmup: number;
  saturation: { c: number; n: number };
  /** How many times each variant's latency and saturation pairs run: the targets use the medians (the machine's noise is about +-10%). */
  rounds: number;
  overload: { c: number; n: number; maxInFlight: number };
  /** WORKER_CONCURRENCY and AGGREGATOR_CONCURRENCY of the product: enough that a pool size is not what is measured. */
  workerConcurrency: number;
  /** Untimed decisions under MONITOR per variant, to tell commands sent from commands run inside scripts (0: none). */
  census: number;
  /** Requests of each key-check row (one at a time). */
  checks: number;
  earlyQuorum: { n: number; latencies: Record<BenchProvider, number> };
  /** Decisions with three images of `mb` MB each, one at a time, through the product and directly (n 0: none). */
  images: { n: number; mb: number };
  variants: Variant[];
  parts: Part[];
  /**
   * Each capacity row measures `seconds` of steady load, or until `n` decisions were sent in it,
   * whichever comes first, after `warmupSeconds` of the same load (plus the users' ramp) and every user's first answer.
   */
  capacity: { seconds: number; n: number; warmupSeconds: number };
  /** Where the saturation phase's CPU profiles go; null when BENCH_PROFILE is off. */
  profileDir: string | null;
  privateRedis: boolean;
  redisUrl: string;
  logLevel: string;
}

/** BENCH_PROFILE_DIR, made if missing, or a new temporary directory. */
function profileDirectory(given: string | undefined): string {
  if (given === undefined) return mkdtempSync(join(tmpdir(), "sd-bench-profile-"));
  mkdirSync(given, { recursive: true });
  return given;
}

/** The benchmark's settings, from BENCH_* variables (see decisions.ts for the list and defaults). */
export function benchOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const raw = loadEnv(BenchEnvSchema, env);
  const c = raw.BENCH_C ?? 20;
  const saturationC = raw.BENCH_SAT_C ?? 100;
  const overloadC = raw.BENCH_OVERLOAD_C ?? 2 * saturationC;
  const n = raw.BENCH_N ?? 400;
  const latencyMs = raw.BENCH_LATENCY_MS ?? 300;
  return {
    n,
    c,
    latencyMs,
    // One model latency: the time a user's first decision takes, so the last user joins as the first one's answer comes.
    rampMs: raw.BENCH_RAMP_MS ?? latencyMs,
    warmup: raw.BENCH_WARMUP ?? 100,
    saturation: { c: saturationC, n: raw.BENCH_SAT_N ?? 6 * saturationC },
    rounds: raw.BENCH_ROUNDS ?? 1,
    overload: { c: overloadC, n: raw.BENCH_OVERLOAD_N ?? 3 * overloadC, maxInFlight: raw.BENCH_MAX_IN_FLIGHT ?? saturationC },
    workerConcurrency: raw.BENCH_WORKER_CONCURRENCY ?? Math.max(saturationC, 16),
    census: raw.BENCH_CENSUS_N ?? 50,
    checks: raw.BENCH_CHECKS ?? 1000,
    earlyQuorum: { n: raw.BENCH_EQ_N ?? 100, latencies: raw.BENCH_EQ_LATENCIES },
    images: { n: raw.BENCH_IMAGES_N ?? 10, mb: raw.BENCH_IMAGE_MB ?? 9 },
    variants: raw.BENCH_VARIANTS,
    parts: raw.BENCH_PARTS,
    capacity: { seconds: raw.BENCH_CAPACITY_SECONDS ?? 15, n: raw.BENCH_CAPACITY_N ?? 2000, warmupSeconds: raw.BENCH_CAPACITY_WARMUP_SECONDS ?? 3 },
    profileDir: raw.BENCH_PROFILE ? profileDirectory(raw.BENCH_PROFILE_DIR) : null,
    privateRedis: raw.BENCH_PRIVATE_REDIS,
    redisUrl: raw.REDIS_URL,
    logLevel: raw.LOG_LEVEL,
  };
}
