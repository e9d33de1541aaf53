/**
 * `npm run bench`: what the decision pipeline costs beyond the model calls, against a DIRECT
 * BASELINE (decisions/baseline-server.ts) making the same SDK calls in the same run. Every party
 * runs in its own process so each one's CPU is its own. The overhead part measures each variant
 * (one process, or split) for latency, saturation, CPU, system calls and Redis commands per decision,
 * overload, the /v1 rows, image decisions and early quorum; the capacity part starts the product as
 * `npm start` does, at its defaults, and prints PASS/MISS per target. Latency phases ramp their users
 * in over one model latency, since users started at one instant stay in lockstep bursts.
 *
 *   npm run bench
 *   BENCH_PARTS=capacity npm run bench   (the capacity part alone, about 2-4 minutes)
 *   BENCH_VARIANTS=one BENCH_N=200 npm run bench
 *   BENCH_PROFILE=1 npm run bench        (CPU profiles of the saturation phase; see bench/profile-summary.ts)
 *
 * Variables (defaults): BENCH_PARTS (overhead,capacity); BENCH_CAPACITY_SECONDS (15) and
 * BENCH_CAPACITY_N (2000), whichever ends a capacity row's window first, after
 * BENCH_CAPACITY_WARMUP_SECONDS (3); BENCH_N (400) and BENCH_C (20) for the latency table and /v1
 * rows; BENCH_LATENCY_MS (300) every model's answer time; BENCH_RAMP_MS (BENCH_LATENCY_MS; 0: all at
 * once); BENCH_WARMUP (100); BENCH_SAT_C (100), BENCH_SAT_N (6 x BENCH_SAT_C); BENCH_ROUNDS (1),
 * judged on the medians; BENCH_OVERLOAD_C (2 x BENCH_SAT_C), BENCH_OVERLOAD_N (3 x BENCH_OVERLOAD_C),
 * BENCH_MAX_IN_FLIGHT (BENCH_SAT_C); BENCH_WORKER_CONCURRENCY (BENCH_SAT_C, at least 16);
 * BENCH_VARIANTS (one,split); BENCH_CENSUS_N (50; 0 skips) untimed decisions under Redis MONITOR;
 * BENCH_CHECKS (1000) key checks; BENCH_IMAGES_N (10; 0 skips) decisions with three images of
 * BENCH_IMAGE_MB (9, at most 9); BENCH_EQ_N (100), BENCH_EQ_LATENCIES (openai=150,gemini=300,claude=600);
 * BENCH_PROFILE (off), BENCH_PROFILE_DIR (a new temporary directory); BENCH_PRIVATE_REDIS (off);
 * LOG_LEVEL of the product in the overhead part (warn).
 */
import { cpus, loadavg } from "node:os";
import { rmSync } from "node:fs";
import { basename } from "node:path";
import { createRedis, deleteDeploymentKeys, type Redis } from "@sd/queue";
import { PrivateRedis } from "@sd/testing/private-redis";
import { benchApi } from "./decisions/api-phases";
import { benchCapacity } from "./decisions/capacity-phases";
import { capacityReport } from "./decisions/capacity-report";
import { killEverything, startBaselineProcess, startEmulatorProcess, stopProcess } from "./decisions/deployment";
import { benchOptions } from "./decisions/options";
import { describeProductEnv, productEnv } from "./decisions/product-env";
import { apiReport, redisTrafficNote, targetsReport, variantReport, VARIANT_TITLES } from "./decisions/report";
import { baselineAnswered, decideDirectly } from "./decisions/requests";
import { UsageMeter } from "./kit";
import { benchVariant, warmUp, type BenchContext, type VariantResult } from "./decisions/variant-phases";

const started = performance.now();
const progress = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
const print = (text: string) => process.stdout.write(`${text}\n`);

/** Removes the keys the run's deployments left in Redis. */
async function removeKeys(redis: Redis, prefixes: Iterable<string>): Promise<void> {
  for (const prefix of prefixes) await deleteDeploymentKeys(redis, prefix);
}

/** Undoes the run: child processes, data directories, Redis keys, the private Redis. Runs once. */
let cleanup: () => Promise<void> = async () => killEverything();

/**
 * The product against the direct baseline: each variant, the /v1 part, then the targets of issue 12.
 * The emulator answers every model after BENCH_LATENCY_MS, in its own process.
 */
async function benchOverhead(ctx: Omit<BenchContext, "emulator" | "baseline">, privateRedis: boolean): Promise<void> {
  const { options } = ctx;
  progress("starting the emulator");
  const emulator = await startEmulatorProcess(options.latencyMs);
  const baselineEnv = productEnv(emulator.url, options);
  rmSync(baselineEnv.DATA_DIR!, { recursive: true, force: true }); // the baseline stores nothing
  /**
   * Runs one part of the run (a variant, the /v1 part) against a baseline process of its own,
   * warmed up as the part's product is: each part starts its product anew, and a baseline that had
   * already served earlier parts would be unfairly cheaper per decision.
   */
  const withFreshBaseline = async <T>(part: (ctx: BenchContext) => Promise<T>): Promise<T> => {
    progress("starting a direct baseline");
    const baseline = await startBaselineProcess(baselineEnv);
    try {
      await warmUp({ url: baseline.url, processes: [baseline] }, { count: options.warmup, concurrency: options.c, check: baselineAnswered }, (c) =>
        decideDirectly(c, "warmup"),
      );
      return await part({ ...ctx, emulator, baseline });
    } finally {
      await stopProcess(baseline);
    }
  };

  print(
    [
      `  Models are SIMULATED: the provider emulator, in its own process, answers every model after ${options.latencyMs} ms; no vendor is called.`,
      "  The emulator, the direct baseline and the product each run in their own processes.",
      "  Direct baseline: one plain node:http endpoint making the same three SDK calls with Promise.all (createProvider, the provider workers' settings);",
      "  a fresh process for each variant and for the /v1 part, as the product's, warmed up as the product is.",
      `  Product: ${describeProductEnv(options)}.`,
      `  Store: ${process.env.MONGO_URL ? "MongoDB at MONGO_URL" : "embedded (MONGO_URL unset: the split gateway and aggregator each keep their own)"}.`,
      `  CPU is user+sys time over each timed phase; "per decision" divides by the decisions answered in it.${options.profileDir ? " CPU profiling is ON (its overhead is in the figures)." : ""}`,
      "",
    ].join("\n"),
  );

  const results: VariantResult[] = [];
  for (const variant of options.variants) {
    progress(`${VARIANT_TITLES[variant]}`);
    const result = await withFreshBaseline((ctx) => benchVariant(ctx, variant));
    results.push(result);
    print(variantReport(result, options));
  }
  const api = await withFreshBaseline(benchApi);
  print(apiReport(api, options));
  print(targetsReport(results, api, options));
  print("");
  print(redisTrafficNote(results, privateRedis));
  if (options.profileDir) {
    print(`CPU profiles of the product during the saturation phase's pipeline run, in ${options.profileDir}:`);
    for (const result of results) print(`  ${result.variant}: ${result.profiles.map((path) => basename(path)).join(", ")}`);
    print(`  summary: npx tsx bench/profile-summary.ts ${options.profileDir}/<variant>-*.cpuprofile`);
  }
  await stopProcess(emulator);
}

async function main(): Promise<void> {
  const options = benchOptions();
  const privateRedis = options.privateRedis ? await PrivateRedis.start() : null;
  if (privateRedis) options.redisUrl = privateRedis.url;
  const redis = createRedis(options.redisUrl, "bench-meter");
  const prefixes = new Set<string>();
  let cleaning: Promise<void> | null = null;
  cleanup = () =>
    (cleaning ??= (async () => {
      killEverything();
      await removeKeys(redis, prefixes).catch(() => undefined);
      redis.disconnect();
      await privateRedis?.close();
    })());
  try {
    const redisVersion = /redis_version:(\S+)/.exec(await redis.info("server"))?.[1] ?? "?";
    const ctx = { options, meter: new UsageMeter(redis, () => prefixes), prefixes, progress };
    const cpu = cpus();
    print(
      [
        `Smart Decision: decision benchmark (BENCH_PARTS=${options.parts.join(",")})`,
        `  Machine: ${cpu.length} CPU cores (${cpu[0]?.model.trim() ?? "?"}), load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(" / ")} at start; Node ${process.version}; Redis ${redisVersion} at ${options.redisUrl}${privateRedis ? " (private)" : ""}.`,
        "  This process only generates load (keep-alive node:http).",
      ].join("\n"),
    );
    if (options.parts.includes("overhead")) await benchOverhead(ctx, privateRedis !== null);
    if (options.parts.includes("capacity")) {
      print("");
      print(capacityReport(await benchCapacity(ctx), options));
    }
  } finally {
    await cleanup();
  }
  progress(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

// Ctrl-C or a kill: no child process may outlive the benchmark, nor its keys stay in Redis.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

const fail = async (error: unknown): Promise<never> => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  await cleanup();
  process.exit(1);
};
// A library's unhandled 'error' event too: clean up before leaving.
process.once("uncaughtException", (error) => void fail(error));
main().catch(fail);
