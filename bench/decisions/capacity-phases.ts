import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import type { LogLine } from "@sd/testing/processes";
import { decideThroughQueue, startQueuePipeline } from "../queue/pipeline";
import { startBaselineProcess, startDeployment, startEmulatorProcess, stopProcess, type Deployment } from "./deployment";
import type { Answer, LoadClient, PhaseRecord } from "./http-load";
import { productSettings, type ProductSettings } from "./product-defaults";
import { productEnv, userStartEnv } from "./product-env";
import { baselineAnswered, decideDirectly, decideThroughPipeline, pipelineAnswered } from "./requests";
import { steadyLoad, type SteadyLoad, type SteadyRun } from "./steady-load";
import { meterWindow, withDescendants, type UsageDelta } from "../kit";
import { loggedTrouble, warmUp, withClient, type BenchContext } from "./variant-phases";

/** What the capacity part needs of the run: it starts its own product, emulator and baseline. */
export type CapacityContext = Pick<BenchContext, "options" | "meter" | "prefixes" | "progress">;

/** A loaded row: the simulated models' latency (SIMULATED_LATENCY_MS) and the closed loop's users. */
interface RowSpec {
  key: "a" | "b" | "c";
  latencyMs: number;
  concurrency: number;
}

/** (a) and (b): throughput and latency against the ideal; (c): fairness, with the product busier than its models. */
const LOADED_ROWS: readonly RowSpec[] = [
  { key: "a", latencyMs: 1000, concurrency: 100 },
  { key: "b", latencyMs: 1000, concurrency: 250 },
  { key: "c", latencyMs: 150, concurrency: 200 },
];

/** Decisions made alone before a row's load: they fail fast with the product's log, and time the slowest model as one user meets it. */
export const ALONE = 2;

export interface LoadedRow extends RowSpec {
  /** The environment given, what the product's schema reads from it, and what the product logged at start. */
  given: Record<string, string>;
  settings: ProductSettings;
  startLog: LogLine[];
  /** The decisions made alone (C=1) before the load. */
  alone: PhaseRecord;
  run: SteadyRun;
  /** CPU over the measured window. */
  usage: UsageDelta;
}

export interface CapacityResult {
  rows: LoadedRow[];
  /** C=1, zero-latency models: the product, the bare BullMQ flow and the direct baseline. */
  single: { product: SteadyRun; queue: SteadyRun; baseline: SteadyRun };
}

/** A decision's answer checked, its status in the problem (what measureDecisions records too). */
const checked = (send: (i: number) => Promise<Answer>, check: (answer: Answer) => string | null) => async (i: number) => {
  const answer = await send(i);
  const problem = check(answer);
  return problem === null ? null : `${answer.status} ${problem}`;
};

/** The users join over one slowest-model latency, then the load runs on through the warm-up and the window. */
function loadShape(ctx: CapacityContext, concurrency: number, slowestMs: number): Omit<SteadyLoad, "task"> {
  const { seconds, n, warmupSeconds } = ctx.options.capacity;
  return { concurrency, rampMs: concurrency > 1 ? slowestMs : 0, warmupMs: warmupSeconds * 1000, windowMs: seconds * 1000, maxCount: n };
}

/** The product started as a user starts it (main.ts, keyless), `run` against it, then stopped. */
async function asUserStarts<T>(ctx: CapacityContext, latencyMs: number, run: (deployment: Deployment, given: Record<string, string>) => Promise<T>): Promise<T> {
  const given = userStartEnv(ctx.options, latencyMs);
  ctx.prefixes.add(given.QUEUE_PREFIX!);
  ctx.progress(`capacity: starting the product as npm start does (SIMULATED_LATENCY_MS=${latencyMs})`);
  const deployment = await startDeployment("one", given);
  try {
    return await run(deployment, given);
  } finally {
    await deployment.stop();
  }
}

/** Decisions through the product's public endpoint in a steady closed loop; a failure comes with the product's last warnings. */
async function productLoad(deployment: Deployment, phase: string, shape: Omit<SteadyLoad, "task">, onWindow?: SteadyLoad["onWindow"]): Promise<SteadyRun> {
  return withClient(deployment.url, shape.concurrency, (client: LoadClient) =>
    steadyLoad({ ...shape, onWindow, task: checked(decideThroughPipeline(client, phase), pipelineAnswered) }),
  ).catch((error: unknown) => {
    throw new Error(`${phase} failed: ${error instanceof Error ? error.message : String(error)}\n${loggedTrouble(deployment.processes)}`);
  });
}

async function loadedRow(ctx: CapacityContext, spec: RowSpec): Promise<LoadedRow> {
  return asUserStarts(ctx, spec.latencyMs, async (deployment, given) => {
    const settings = productSettings(given);
    const startLog = [...deployment.processes[0]!.service.lines];
    const phase = `capacity-${spec.key}`;
    const alone = (await warmUp(deployment, { count: ALONE, concurrency: 1, check: pipelineAnswered }, (client) => decideThroughPipeline(client, `${phase}-alone`)))!;
    ctx.progress(`capacity (${spec.key}): C=${spec.concurrency}, models of ${spec.latencyMs} ms (the panel's slowest ${settings.slowestMs} ms)`);
    const window = meterWindow(ctx.meter, withDescendants(deployment.processes));
    const run = await productLoad(deployment, phase, loadShape(ctx, spec.concurrency, settings.slowestMs), window);
    return { ...spec, given, settings, startLog, alone, run, usage: await window.usage() };
  });
}

/** The queue bookkeeping alone (bench/queue/pipeline.ts), in this process, with zero-latency votes and the product's worker concurrency. */
async function bareFlow(ctx: CapacityContext, settings: ProductSettings): Promise<SteadyRun> {
  const prefix = `sdbench-${randomUUID().slice(0, 8)}`;
  ctx.prefixes.add(prefix);
  ctx.progress("capacity (d): the bare BullMQ flow at C=1, zero-latency votes");
  const pipeline = startQueuePipeline({ redisUrl: ctx.options.redisUrl, prefix, concurrency: settings.env.WORKER_CONCURRENCY, latencyMs: 0 });
  try {
    await pipeline.flow.ready();
    return await steadyLoad({ ...loadShape(ctx, 1, 0), task: () => decideThroughQueue(pipeline.flow).then(() => null) });
  } finally {
    await pipeline.close();
  }
}

/** The direct baseline (baseline-server.ts) against an emulator process answering at once. */
async function directBaseline(ctx: CapacityContext): Promise<SteadyRun> {
  ctx.progress("capacity (d): the direct baseline at C=1, emulator at 0 ms");
  const emulator = await startEmulatorProcess(0);
  const env = productEnv(emulator.url, ctx.options);
  rmSync(env.DATA_DIR!, { recursive: true, force: true }); // the baseline stores nothing
  try {
    const baseline = await startBaselineProcess(env);
    try {
      return await withClient(baseline.url, 1, (client) =>
        steadyLoad({ ...loadShape(ctx, 1, 0), task: checked(decideDirectly(client, "capacity-d-direct"), baselineAnswered) }),
      );
    } finally {
      await stopProcess(baseline);
    }
  } finally {
    await stopProcess(emulator);
  }
}

/**
 * The capacity part: the product as `npm start` runs it for a user, each row on a fresh start
 * (rows a to c: throughput, latency and fairness under load; d: one user with models that answer
 * at once, beside the bare queue flow and the direct baseline of the same run).
 */
export async function benchCapacity(ctx: CapacityContext): Promise<CapacityResult> {
  const rows: LoadedRow[] = [];
  for (const spec of LOADED_ROWS) rows.push(await loadedRow(ctx, spec));
  const product = await asUserStarts(ctx, 0, async (deployment) => {
    await warmUp(deployment, { count: ALONE, concurrency: 1, check: pipelineAnswered }, (client) => decideThroughPipeline(client, "capacity-d-alone"));
    ctx.progress("capacity (d): the product at C=1, models answering at once");
    return productLoad(deployment, "capacity-d", loadShape(ctx, 1, 0));
  });
  const queue = await bareFlow(ctx, rows[0]!.settings);
  const baseline = await directBaseline(ctx);
  return { rows, single: { product, queue, baseline } };
}
