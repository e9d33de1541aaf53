import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { logLevelNumber } from "@sd/telemetry";
import { keepPhase, profileClockUs } from "./cpu-profile";
import { startDeployment, type BenchProcess, type Deployment, type EmulatorProcess } from "./deployment";
import { LoadClient, measureDecisions, type DecisionLoad, type PhaseRecord } from "./http-load";
import type { BenchOptions, Variant } from "./options";
import { productEnv } from "./product-env";
import { redisCensus, type RedisCensus } from "./redis-census";
import { baselineAnswered, decideDirectly, decideThroughPipeline, pipelineAnswered } from "./requests";
import { metered, type UsageDelta, type UsageMeter } from "../kit";

/** What every phase of the run shares. */
export interface BenchContext {
  options: BenchOptions;
  meter: UsageMeter;
  emulator: EmulatorProcess;
  baseline: BenchProcess & { url: string };
  /** QUEUE_PREFIXes of the deployments this run started (the meter tells other deployments' traffic apart). */
  prefixes: Set<string>;
  /** A progress line on stderr (the tables go to stdout). */
  progress: (line: string) => void;
}

/** A timed run with the CPU and Redis counters around it. */
export interface MeteredRun {
  record: PhaseRecord;
  usage: UsageDelta;
}

/** The pipeline and the baseline at the same concurrency, one after the other. */
export interface ComparedRuns {
  concurrency: number;
  pipeline: MeteredRun;
  baseline: MeteredRun;
}

export interface VariantResult {
  variant: Variant;
  /** The product's processes, as the CPU table names them. */
  labels: string[];
  latency: ComparedRuns;
  saturation: ComparedRuns;
  /** Rounds 2 to BENCH_ROUNDS of the latency and saturation pairs (the CPU table, Redis and profile figures are the first round's; the targets use every round). */
  moreRounds: { latency: ComparedRuns; saturation: ComparedRuns }[];
  /** Commands the product sent and ran inside scripts, from MONITOR (null with BENCH_CENSUS_N=0). */
  census: RedisCensus | null;
  overload: { record: PhaseRecord; concurrency: number; maxInFlight: number };
  /** Trimmed CPU profiles of the saturation phase (BENCH_PROFILE=1). */
  profiles: string[];
}

/** Runs `run` with a client pool of its own (a phase's pool is not reused: the server may close its idle sockets meanwhile). */
export async function withClient<T>(origin: string, sockets: number, run: (client: LoadClient) => Promise<T>): Promise<T> {
  const client = new LoadClient(origin, sockets);
  try {
    return await run(client);
  } finally {
    client.close();
  }
}

/** The last warnings and errors each process logged, to say why a phase failed. */
export function loggedTrouble(processes: readonly BenchProcess[], perProcess = 10): string {
  const warn = logLevelNumber("warn");
  return processes
    .map((p) => {
      const lines = p.service.lines.filter((line) => typeof line.level === "number" && line.level >= warn).slice(-perProcess);
      return lines.length === 0 ? `  ${p.label}: no warning or error logged` : [`  ${p.label}:`, ...lines.map((line) => `    ${JSON.stringify(line)}`)].join("\n");
    })
    .join("\n");
}

/**
 * Decisions before measuring, so connections, JIT and queues are warm; the first failure stops the
 * run, with what the processes of `deployment` logged (warnings and errors) to say why. Returns
 * what the warm-up saw (null when `load.count` is 0).
 */
export async function warmUp(
  deployment: { url: string; processes: readonly BenchProcess[] },
  load: Omit<DecisionLoad, "send">,
  send: (client: LoadClient) => DecisionLoad["send"],
): Promise<PhaseRecord | null> {
  if (load.count === 0) return null;
  const { url, processes } = deployment;
  return withClient(url, load.concurrency, (client) => measureDecisions({ ...load, send: send(client), failFast: true })).catch((error: unknown) => {
    throw new Error(`warm-up failed at ${url}: ${error instanceof Error ? error.message : String(error)}\n${loggedTrouble(processes)}`);
  });
}

/**
 * The pipeline's run, then the baseline's, with the users joining over `rampMs`;
 * `pipelineWindow` receives the pipeline run's start and end on the profile clock.
 */
async function comparedRuns(
  ctx: BenchContext,
  deployment: Deployment,
  phase: string,
  { count, concurrency, rampMs }: { count: number; concurrency: number; rampMs: number },
  pipelineWindow?: { from: number; to: number },
): Promise<ComparedRuns> {
  const processes = [...deployment.processes, ctx.baseline, ctx.emulator];
  const run = (origin: string, load: Omit<DecisionLoad, "send">, send: (client: LoadClient) => DecisionLoad["send"]) =>
    metered(ctx.meter, processes, () => withClient(origin, concurrency, (client) => measureDecisions({ ...load, send: send(client) })));
  ctx.progress(`${deployment.variant}: ${phase}, pipeline (${count} decisions at concurrency ${concurrency})`);
  if (pipelineWindow) pipelineWindow.from = profileClockUs();
  const pipeline = await run(deployment.url, { count, concurrency, rampMs, check: pipelineAnswered }, (c) => decideThroughPipeline(c, `${deployment.variant}-${phase}`));
  if (pipelineWindow) pipelineWindow.to = profileClockUs();
  ctx.progress(`${deployment.variant}: ${phase}, direct baseline`);
  const baseline = await run(ctx.baseline.url, { count, concurrency, rampMs, check: baselineAnswered }, (c) => decideDirectly(c, `${deployment.variant}-${phase}`));
  return {
    concurrency,
    pipeline: { record: pipeline.result, usage: pipeline.usage },
    baseline: { record: baseline.result, usage: baseline.usage },
  };
}

/**
 * One variant of the product: a deployment for the latency table and the saturation phase
 * (profiled with BENCH_PROFILE=1, the saturation phase's pipeline run kept), then a fresh one with
 * MAX_IN_FLIGHT_DECISIONS set for the overload phase.
 */
export async function benchVariant(ctx: BenchContext, variant: Variant): Promise<VariantResult> {
  const { options } = ctx;
  const profileDir = options.profileDir;
  const rawProfiles = profileDir === null ? null : mkdtempSync(join(profileDir, `raw-${variant}-`));
  const env = productEnv(ctx.emulator.url, options);
  ctx.prefixes.add(env.QUEUE_PREFIX!);
  ctx.progress(`${variant}: starting the product${rawProfiles ? " (with --cpu-prof)" : ""}`);
  const main = await startDeployment(variant, env, {
    nodeArgs: rawProfiles === null ? undefined : () => ["--cpu-prof", `--cpu-prof-dir=${rawProfiles}`],
  });
  let latency: ComparedRuns;
  let saturation: ComparedRuns;
  let census: RedisCensus | null = null;
  const moreRounds: VariantResult["moreRounds"] = [];
  /** The saturation phase's pipeline run, the part of the profiles kept. */
  const window = { from: 0, to: 0 };
  const latencyLoad = { count: options.n, concurrency: options.c, rampMs: options.rampMs };
  const saturationLoad = { count: options.saturation.n, concurrency: options.saturation.c, rampMs: 0 };
  try {
    await warmUp(main, { count: options.warmup, concurrency: options.c, check: pipelineAnswered }, (c) => decideThroughPipeline(c, `${variant}-warmup`));
    latency = await comparedRuns(ctx, main, "latency", latencyLoad);
    if (options.census > 0) {
      ctx.progress(`${variant}: Redis census (${options.census} untimed decisions under MONITOR)`);
      census = await redisCensus(
        options.redisUrl,
        main.processes.map((p) => p.pid),
        async () => {
          const load = { count: options.census, concurrency: options.c, check: pipelineAnswered };
          const record = await withClient(main.url, options.c, (client) => measureDecisions({ ...load, send: decideThroughPipeline(client, `${variant}-census`) }));
          return record.answered.length;
        },
      );
    }
    saturation = await comparedRuns(ctx, main, "saturation", saturationLoad, window);
    for (let round = 2; round <= options.rounds; round++) {
      moreRounds.push({
        latency: await comparedRuns(ctx, main, `latency, round ${round}`, latencyLoad),
        saturation: await comparedRuns(ctx, main, `saturation, round ${round}`, saturationLoad),
      });
    }
  } finally {
    await main.stop();
  }
  const names = new Map(main.processes.map((p) => [p.pid, `${variant}-${p.label}-saturation`]));
  const profiles = rawProfiles === null || profileDir === null ? [] : keepPhase(rawProfiles, profileDir, names, window.from, window.to);

  const { c: overloadC, n: overloadN, maxInFlight } = options.overload;
  const overloadEnv = productEnv(ctx.emulator.url, options);
  ctx.prefixes.add(overloadEnv.QUEUE_PREFIX!);
  ctx.progress(`${variant}: starting the product with MAX_IN_FLIGHT_DECISIONS=${maxInFlight}`);
  const limited = await startDeployment(variant, overloadEnv, { gatewayEnv: { MAX_IN_FLIGHT_DECISIONS: String(maxInFlight) } });
  let overload: PhaseRecord;
  try {
    await warmUp(limited, { count: options.warmup, concurrency: options.c, check: pipelineAnswered }, (c) => decideThroughPipeline(c, `${variant}-warmup2`));
    ctx.progress(`${variant}: overload (${overloadN} decisions at concurrency ${overloadC})`);
    overload = await withClient(limited.url, overloadC, (client) =>
      measureDecisions({
        count: overloadN,
        concurrency: overloadC,
        send: decideThroughPipeline(client, `${variant}-overload`),
        check: pipelineAnswered,
        retryRefusals: true,
      }),
    );
  } finally {
    await limited.stop();
  }
  return {
    variant,
    labels: main.processes.map((p) => p.label),
    latency,
    saturation,
    moreRounds,
    census,
    overload: { record: overload, concurrency: overloadC, maxInFlight },
    profiles,
  };
}
