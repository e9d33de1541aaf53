/**
 * End-to-end decision benchmark: N decisions at concurrency C through the real pipeline
 * (HTTP -> BullMQ flow on Redis -> three provider workers using the official SDKs -> aggregator
 * -> store), with the provider emulator answering every model after a fixed latency. The baseline
 * makes the same three SDK calls per decision with Promise.all in this process, with no queue.
 *
 *   npm run bench                       (defaults: N=200, C=20, latency 300 ms)
 *   BENCH_N=500 BENCH_C=50 BENCH_LATENCY_MS=300 npm run bench
 */
import { allInOneEnv, loadEnv, providersFromEnv } from "@sd/config";
import { startEmulator } from "@sd/provider-emulator";
import { createProvider } from "@sd/providers";
import { postJson } from "../src/testing/client";
import { testEnv } from "../src/testing/env";
import { startStack } from "../src/testing/stack";

const N = Number(process.env.BENCH_N ?? 200);
const C = Number(process.env.BENCH_C ?? 20);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 300);
const CATEGORIES = ["Approve", "Reject", "Escalate"];

interface Run {
  latencies: number[];
  seconds: number;
}

/** Runs `task` N times with at most C at once; returns each run's latency and the wall time. */
async function measure(task: (i: number) => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (next < N) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function summary(name: string, run: Run) {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  return {
    name,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    throughput: run.latencies.length / run.seconds,
  };
}

async function main() {
  const emulator = await startEmulator({ defaultLatencyMs: LATENCY_MS });
  const vars = testEnv(emulator.url, {
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    WORKER_CONCURRENCY: String(Math.max(C, 16)),
    AGGREGATOR_CONCURRENCY: String(Math.max(C, 8)),
    OPENAI_TIMEOUT_MS: "20000",
    GEMINI_TIMEOUT_MS: "20000",
    CLAUDE_TIMEOUT_MS: "20000",
  });
  const stack = await startStack(vars);
  const providers = providersFromEnv(loadEnv(allInOneEnv, vars).PROVIDERS, vars).map(createProvider);
  const question = (i: number) => `Benchmark decision ${i}: approve the expense report?`;

  try {
    const decide = async (i: number) => {
      const { status, body } = await postJson(`${stack.url}/api/ensembled-llm-categorical-decision-public`, {
        question: question(i),
        categories: CATEGORIES,
      });
      if (status !== 200 || body.total_votes !== 3) throw new Error(`decision ${i} failed: ${status} ${JSON.stringify(body)}`);
    };
    const direct = async (i: number) => {
      await Promise.all(providers.map((p) => p.vote({ question: question(i), categories: CATEGORIES, images: [] })));
    };
    // Warm up connections, JIT and the queues before measuring.
    for (let i = 0; i < Math.min(C, 10); i++) await Promise.all([decide(-i - 1), direct(-i - 1)]);

    const pipeline = summary("pipeline (HTTP + BullMQ + workers + aggregator)", await measure(decide));
    const baseline = summary("direct baseline (3 SDK calls, Promise.all)", await measure(direct));

    const ms = (v: number) => `${v.toFixed(0).padStart(6)} ms`;
    process.stdout.write(`\nDecisions: N=${N}, concurrency=${C}, emulated model latency=${LATENCY_MS} ms\n\n`);
    process.stdout.write(`${"".padEnd(50)}      p50       p95       p99   decisions/s\n`);
    for (const row of [pipeline, baseline]) {
      process.stdout.write(`${row.name.padEnd(50)}${ms(row.p50)}${ms(row.p95)}${ms(row.p99)}   ${row.throughput.toFixed(1).padStart(10)}\n`);
    }
    process.stdout.write(
      `${"pipeline / baseline".padEnd(50)}${(pipeline.p50 / baseline.p50).toFixed(2).padStart(8)}x ${(pipeline.p95 / baseline.p95).toFixed(2).padStart(8)}x ${(pipeline.p99 / baseline.p99).toFixed(2).padStart(8)}x   ${(pipeline.throughput / baseline.throughput).toFixed(2).padStart(9)}x\n\n`,
    );
  } finally {
    await stack.close();
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
