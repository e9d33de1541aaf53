/**
 * `npm run bench:queue`: the queue bookkeeping of a decision alone (DecisionFlow, vote and aggregate
 * workers, no HTTP, SDK or store) against three timers with Promise.all, so the difference is the
 * queue's: the floor under `npm run bench`'s CPU per decision.
 * Variables (defaults): BENCH_LATENCY_MS (300) each vote's answer time; BENCH_QUEUE_N (1000)
 * decisions per phase (C=20 ramped, C=100 at once); REDIS_URL. Redis figures are the whole
 * server's, so exact only when nothing else uses that Redis.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { createRedis, deleteDeploymentKeys } from "@sd/queue";
import { closedLoop, metered, percentiles, positiveInteger, row, UsageMeter } from "./kit";
import { decideThroughQueue, QUEUE_PROVIDERS, startQueuePipeline } from "./queue/pipeline";

const LATENCY_MS = positiveInteger("BENCH_LATENCY_MS", 300);
const N = positiveInteger("BENCH_QUEUE_N", 1000);
const WARMUP = 200;
const LABEL_WIDTH = 34;
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const PHASES = [
  { concurrency: 20, rampMs: LATENCY_MS },
  { concurrency: 100, rampMs: 0 },
];
/** Enough for every phase's decisions in flight, as `npm run bench` sets WORKER_CONCURRENCY. */
const CONCURRENCY = Math.max(...PHASES.map((p) => p.concurrency));

const prefix = `sdbench-queue-${randomUUID().slice(0, 8)}`;

/** The baseline: the same wait for three answers, with no queue in between. */
const decideDirectly = async (): Promise<void> => {
  await Promise.all(QUEUE_PROVIDERS.map(() => delay(LATENCY_MS)));
};

interface Measured {
  perSecond: number;
  p50: number;
  p99: number;
  cpuMs: number;
  redisCpuMs: number;
  redisCommands: number;
}

async function measure(meter: UsageMeter, count: number, concurrency: number, rampMs: number, task: () => Promise<void>): Promise<Measured> {
  const latencies: number[] = [];
  const timed = async () => {
    const started = performance.now();
    await task();
    latencies.push(performance.now() - started);
  };
  const { result: seconds, usage } = await metered(meter, [], () => closedLoop(count, concurrency, timed, rampMs));
  const { p50, p99 } = percentiles(latencies);
  return {
    perSecond: count / seconds,
    p50,
    p99,
    // Every role runs in this process, which the meter counts as the load generator's.
    cpuMs: usage.loadGeneratorCpuMs / count,
    redisCpuMs: usage.redisCpuMs / count,
    redisCommands: [...usage.commands.values()].reduce((a, b) => a + b, 0) / count,
  };
}

const line = (label: string, m: Measured) =>
  row(label, LABEL_WIDTH, [m.perSecond.toFixed(1), `${m.p50.toFixed(0)} ms`, `${m.p99.toFixed(0)} ms`, m.cpuMs.toFixed(2), m.redisCpuMs.toFixed(2), m.redisCommands.toFixed(1)]);

const meterConnection = createRedis(REDIS_URL, "bench-meter");
const meter = new UsageMeter(meterConnection, () => new Set([prefix]));
const pipeline = startQueuePipeline({ redisUrl: REDIS_URL, prefix, concurrency: CONCURRENCY, latencyMs: LATENCY_MS });
try {
  await pipeline.flow.ready();
  console.log(`The queue alone: DecisionFlow, ${CONCURRENCY} job slots per provider queue and on the aggregate queue (createWorker's pools), in this process;`);
  console.log(`every vote answers after ${LATENCY_MS} ms (a timer: no model, no HTTP, no store). The baseline waits on the same three timers.`);
  await closedLoop(WARMUP, CONCURRENCY, () => decideThroughQueue(pipeline.flow));
  for (const { concurrency, rampMs } of PHASES) {
    const queued = await measure(meter, N, concurrency, rampMs, () => decideThroughQueue(pipeline.flow));
    const direct = await measure(meter, N, concurrency, rampMs, decideDirectly);
    const joining = rampMs > 0 ? `the users join over ${rampMs} ms` : "the users start at once";
    console.log(`\nConcurrency ${concurrency} (N=${N} each; ${joining})`);
    console.log(row("", LABEL_WIDTH, ["decisions/s", "p50", "p99", "CPU ms", "Redis CPU", "Redis cmds"]));
    console.log(line("queue: flow, votes, aggregation", queued));
    console.log(line("baseline: three timers", direct));
    console.log(`  the queue's own CPU per decision: ${(queued.cpuMs - direct.cpuMs).toFixed(2)} ms in this process, plus ${queued.redisCpuMs.toFixed(2)} ms of Redis`);
  }
  console.log("\nCPU ms: this process's user+sys time per decision; Redis CPU and commands (those inside scripts included): INFO, per decision.");
} finally {
  await pipeline.close();
  await deleteDeploymentKeys(meterConnection, prefix);
  meterConnection.disconnect();
}
