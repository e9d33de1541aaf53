/**
 * `npm run bench`: what the decision pipeline costs beyond the model calls themselves, measured
 * fairly. Every party runs in its own process: this one only generates load (keep-alive HTTP);
 * the provider emulator answers every model after a fixed latency; the product runs as an
 * operator starts it, either as one all-in-one process or split into a gateway, a provider-worker
 * and an aggregator process; and the DIRECT BASELINE (decisions/baseline-server.ts) serves one
 * HTTP endpoint that makes the same three SDK calls with Promise.all through the same provider
 * classes and settings, in a fresh process for each variant and for the /v1 part, as the product
 * is started anew for each. Ratios compare the product with the baseline of the same run.
 *
 * Per variant: latency at concurrency BENCH_C; saturation at BENCH_SAT_C (decisions/s); CPU ms per
 * decision of every process (/proc/<pid>/stat), of Redis (INFO cpu) and of the whole machine
 * (/proc/stat: what saturation throughput follows, and the budget a throughput target leaves);
 * read and write system calls per decision of the product, the baseline and a Redis on this
 * machine (/proc/<pid>/io);
 * Redis commands per decision (INFO commandstats); overload at BENCH_OVERLOAD_C with
 * MAX_IN_FLIGHT_DECISIONS set (503s and their Retry-After counted apart). Then, on one process: the same decision with a
 * bearer token (web endpoint) and with an API key (/v1/ensemble), the key check alone, decisions with three
 * large images against the same calls made directly, and early quorum against the direct baseline
 * answering at the same quorum (the second-fastest model).
 *
 * The CAPACITY part (decisions/capacity-phases.ts) measures what users meet (the part above sets
 * WORKER_CONCURRENCY, NODE_ENV and LOG_LEVEL itself, so it cannot show what the defaults cap): the product started as
 * `npm start` starts it (services/all-in-one/src/main.ts, no API key so its built-in emulator
 * answers, every setting at its default but the per-IP rate limits, QUEUE_PREFIX, DATA_DIR, PORT
 * and SIMULATED_LATENCY_MS), a fresh start per row: (a) 1 s models at C=100, decisions/s against
 * C / the panel's slowest model and p50 against that model; (b) the same at C=250; (c) fairness,
 * 150 ms models at C=200: p99/p50, max/p50, and how many later decisions overtook each one; (d) one
 * user with models answering at once, beside the bare BullMQ flow (bench/queue/pipeline.ts) and the
 * direct baseline at C=1. Each row's closed loop runs on from its warm-up through the measured
 * window, so the window sees the steady state. It prints the settings in force and a PASS/MISS column.
 *
 *   npm run bench
 *   BENCH_PARTS=capacity npm run bench   (the capacity part alone, about 2-4 minutes)
 *   BENCH_VARIANTS=one BENCH_N=200 npm run bench
 *   BENCH_PROFILE=1 npm run bench        (CPU profiles of the saturation phase; see bench/profile-summary.ts)
 *
 * The load is closed loops of C users, each sending its next decision when the last one is
 * answered. In the latency phases (the C=20 table, the /v1 rows, early quorum) the users join one by
 * one over one model latency, as load tools ramp up their virtual users: started at one instant,
 * they would send lockstep bursts of C that stay in step for many rounds (at C=20, the first 100
 * of 400 decisions had a p50 61 ms above the last 100's, through the same product), and the phase
 * would measure that start-up transient rather than the steady state. The saturation and overload
 * phases start every user at once: the harder case, and the burst the overload phase is about.
 *
 * Variables (defaults): BENCH_PARTS (overhead,capacity): "overhead" is everything above but the
 * capacity part; BENCH_CAPACITY_SECONDS (15) and BENCH_CAPACITY_N (2000): each capacity row's window
 * ends after that long or that many decisions sent in it, whichever comes first;
 * BENCH_CAPACITY_WARMUP_SECONDS (3) of the same load before it, after the users' ramp (one slowest-model
 * latency), and the window waits for every user's first answer. BENCH_N (400) and BENCH_C (20) for the latency table and /v1 rows;
 * BENCH_LATENCY_MS (300) every model's answer time; BENCH_RAMP_MS (BENCH_LATENCY_MS) the time over
 * which a latency phase's users join (0: all at once, as the saturation and overload phases); BENCH_WARMUP (100) decisions per product start and before the early-quorum phase;
 * BENCH_SAT_C (100), BENCH_SAT_N (6 x BENCH_SAT_C); BENCH_ROUNDS (1) runs each variant's latency and
 * saturation pairs, and the early-quorum pair, that many times on the same deployment, and the targets
 * use the medians (this machine's run-to-run noise is about +-10%, more when the hypervisor takes CPU
 * time for other guests: the CPU tables show that share, from /proc/stat); BENCH_OVERLOAD_C (2 x BENCH_SAT_C),
 * BENCH_OVERLOAD_N (3 x BENCH_OVERLOAD_C), BENCH_MAX_IN_FLIGHT (BENCH_SAT_C);
 * BENCH_WORKER_CONCURRENCY (BENCH_SAT_C, at least 16); BENCH_VARIANTS (one,split); BENCH_CENSUS_N (50)
 * untimed decisions under Redis MONITOR (sent commands apart from those inside Lua; 0 skips); BENCH_CHECKS
 * (1000) key-check requests each; BENCH_IMAGES_N (10; 0 skips) decisions with three images of
 * BENCH_IMAGE_MB (9, at most 9) each, one at a time; BENCH_EQ_N (100), BENCH_EQ_LATENCIES (openai=150,gemini=300,claude=600);
 * BENCH_PROFILE (off), BENCH_PROFILE_DIR (a new temporary directory); BENCH_PRIVATE_REDIS (off: the
 * Redis at REDIS_URL); LOG_LEVEL of the product in the overhead part (warn; the capacity part
 * leaves the product's default).
 */
import { cpus, loadavg } from "node:os";
import { rmSync } from "node:fs";
import { basename } from "node:path";
import { createRedis, deleteDeploymentKeys, type Redis } from "@sd/queue";
import { PrivateRedis } from "../src/testing/private-redis";
import { benchApi } from "./decisions/api-phases";
import { benchCapacity } from "./decisions/capacity-phases";
import { capacityReport } from "./decisions/capacity-report";
import { killEverything, startBaselineProcess, startEmulatorProcess, stopProcess } from "./decisions/deployment";
import { benchOptions } from "./decisions/options";
import { describeProductEnv, productEnv } from "./decisions/product-env";
import { apiReport, redisTrafficNote, targetsReport, variantReport, VARIANT_TITLES } from "./decisions/report";
import { baselineAnswered, decideDirectly } from "./decisions/requests";
import { UsageMeter } from "./decisions/usage";
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
   * already served the earlier parts used 23-39% less CPU per decision than in the first one.
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
    print(`  summary: npx tsx services/all-in-one/bench/profile-summary.ts ${options.profileDir}/<variant>-*.cpuprofile`);
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
