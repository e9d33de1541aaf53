/**
 * End-to-end decision benchmark: N decisions at concurrency C through the real pipeline
 * (HTTP -> BullMQ flow on Redis -> three provider workers using the official SDKs -> aggregator
 * -> store), with the provider emulator answering every model after a fixed latency. The baseline
 * makes the same three SDK calls per decision with Promise.all in this process, with no queue.
 *
 * The /v1/ensemble rows make the same decision through an API key (SD-API-KEY: key lookup, per-key
 * rate limit, monthly quota, last_used_at) and through a bearer token, interleaved in one run so
 * both see the same load, and print the difference of their p50s; a decision made with a key also
 * has its cost added to the key by the aggregator (one more store write). The key check alone is
 * then measured on a request that does almost nothing else: the same history page through both.
 *
 *   npm run bench                       (defaults: N=200, C=20, latency 300 ms)
 *   BENCH_N=500 BENCH_C=50 BENCH_LATENCY_MS=300 npm run bench
 */
import { allInOneEnv, loadEnv, providersFromEnv } from "@sd/config";
import { startEmulator } from "@sd/provider-emulator";
import { createProvider } from "@sd/providers";
import { API_KEY_HEADER, ApiKeySchema } from "@sd/contracts";
import { postJson } from "../src/testing/client";
import { testEnv } from "../src/testing/env";
import { signInByMail } from "../src/testing/sign-in";
import { SmtpCapture } from "../src/testing/smtp-capture";
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
async function measure(task: (i: number) => Promise<void>, count = N, concurrency = C): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/**
 * Runs `a` and `b` N times each, alternating between them in one stream of work at concurrency C,
 * so both meet the same load, the same warm caches and the same background noise.
 */
async function measurePair(a: (i: number) => Promise<void>, b: (i: number) => Promise<void>, count = N, concurrency = C): Promise<[Run, Run]> {
  const runs: [number[], number[]] = [[], []];
  const started = performance.now();
  await measure(async (i) => {
    const which = i % 2;
    const t0 = performance.now();
    await (which === 0 ? a : b)(Math.floor(i / 2));
    runs[which]!.push(performance.now() - t0);
  }, count * 2, concurrency);
  const seconds = (performance.now() - started) / 1000;
  return [
    { latencies: runs[0], seconds },
    { latencies: runs[1], seconds },
  ];
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
  const smtp = await SmtpCapture.start();
  const vars = testEnv(emulator.url, {
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    WORKER_CONCURRENCY: String(Math.max(C, 16)),
    AGGREGATOR_CONCURRENCY: String(Math.max(C, 8)),
    OPENAI_TIMEOUT_MS: "20000",
    GEMINI_TIMEOUT_MS: "20000",
    CLAUDE_TIMEOUT_MS: "20000",
    SMTP_URL: smtp.url,
    // The key's limits must not be what is measured.
    API_MONTHLY_QUOTA: "1000000",
    API_KEY_RATE_LIMIT_PER_MINUTE: "1000000",
  });
  const stack = await startStack(vars);
  const providers = providersFromEnv(loadEnv(allInOneEnv, vars).PROVIDERS, vars).map(createProvider);
  const question = (i: number) => `Benchmark decision ${i}: approve the expense report?`;

  try {
    // One signed-in user with one API key: the bearer rows and the key rows are the same user's.
    const { tokens } = await signInByMail(stack.url, smtp, "bench@example.com");
    const created = await fetch(`${stack.url}/api/api-keys`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${tokens.access_token}` },
      body: JSON.stringify({ name: "bench" }),
    });
    const apiKey = ApiKeySchema.parse(await created.json()).keyvalue!;
    const send = async (path: string, auth: Record<string, string>, body?: unknown) => {
      const response = await fetch(`${stack.url}${path}`, {
        method: body === undefined ? "GET" : "POST",
        headers: { ...auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const answer = (await response.json()) as Record<string, unknown>;
      if (response.status !== 200) throw new Error(`${path} failed: ${response.status} ${JSON.stringify(answer)}`);
      return answer;
    };
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const keyed = { [API_KEY_HEADER]: apiKey };
    const withBearer = async (i: number) => {
      const answer = await send("/api/ensembled-llm-categorical-decision", bearer, { question: question(i), categories: CATEGORIES });
      if (answer.total_votes !== 3) throw new Error(`bearer decision ${i}: ${JSON.stringify(answer)}`);
    };
    const withKey = async (i: number) => {
      const answer = await send("/v1/ensemble", keyed, { prompt: question(i), valid_responses: CATEGORIES });
      if (answer.total_votes !== 3) throw new Error(`/v1 decision ${i}: ${JSON.stringify(answer)}`);
    };
    const historyWithBearer = async () => void (await send("/api/decision-history?limit=1", bearer));
    const historyWithKey = async () => void (await send("/v1/decision-history?limit=1", keyed));

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
    for (let i = 0; i < Math.min(C, 10); i++) {
      await Promise.all([decide(-i - 1), direct(-i - 1), withBearer(-i - 1), withKey(-i - 1), historyWithBearer(), historyWithKey()]);
    }

    const pipeline = summary("pipeline (HTTP + BullMQ + workers + aggregator)", await measure(decide));
    const baseline = summary("direct baseline (3 SDK calls, Promise.all)", await measure(direct));
    const [bearerRun, keyRun] = await measurePair(withBearer, withKey);
    const bearerRow = summary("bearer: POST /api/ensembled-llm-categorical-decision", bearerRun);
    const keyRow = summary("API key: POST /v1/ensemble", keyRun);
    // The key check on its own: one request at a time, on a handler that does almost nothing else.
    const CHECKS = N * 5;
    const [bearerCheckRun, keyCheckRun] = await measurePair(historyWithBearer, historyWithKey, CHECKS, 1);
    const bearerCheck = summary("bearer: GET /api/decision-history?limit=1", bearerCheckRun);
    const keyCheck = summary("API key: GET /v1/decision-history?limit=1", keyCheckRun);

    const ms = (v: number) => `${v.toFixed(0).padStart(6)} ms`;
    process.stdout.write(`\nDecisions: N=${N}, concurrency=${C}, emulated model latency=${LATENCY_MS} ms\n\n`);
    process.stdout.write(`${"".padEnd(50)}      p50       p95       p99   decisions/s\n`);
    for (const row of [pipeline, baseline]) {
      process.stdout.write(`${row.name.padEnd(50)}${ms(row.p50)}${ms(row.p95)}${ms(row.p99)}   ${row.throughput.toFixed(1).padStart(10)}\n`);
    }
    process.stdout.write(
      `${"pipeline / baseline".padEnd(50)}${(pipeline.p50 / baseline.p50).toFixed(2).padStart(8)}x ${(pipeline.p95 / baseline.p95).toFixed(2).padStart(8)}x ${(pipeline.p99 / baseline.p99).toFixed(2).padStart(8)}x   ${(pipeline.throughput / baseline.throughput).toFixed(2).padStart(9)}x\n\n`,
    );

    const precise = (v: number) => `${v.toFixed(2).padStart(9)} ms`;
    const signed = (v: number) => `${v >= 0 ? "+" : "-"}${Math.abs(v).toFixed(2)} ms`;
    const pair = (title: string, a: ReturnType<typeof summary>, b: ReturnType<typeof summary>, perSecond: string, note: string) => {
      process.stdout.write(`${title}\n${"".padEnd(56)}${["p50", "p95", "p99"].map((p) => p.padStart(12)).join("")}   ${perSecond}\n`);
      for (const row of [a, b]) {
        process.stdout.write(`${row.name.padEnd(56)}${precise(row.p50)}${precise(row.p95)}${precise(row.p99)}   ${row.throughput.toFixed(1).padStart(10)}\n`);
      }
      process.stdout.write(`${"API key - bearer, at p50".padEnd(56)}${signed(b.p50 - a.p50).padStart(12)}   ${note}\n\n`);
    };
    pair(
      `/v1/ensemble: the same decision with a bearer token and with an API key, interleaved (N=${N} each, concurrency=${C})`,
      bearerRow,
      keyRow,
      "decisions/s",
      "(the key check: lookup, rate limit, quota, last use)",
    );
    pair(
      `The key check alone: the same history page with each, one request at a time (N=${CHECKS} each)`,
      bearerCheck,
      keyCheck,
      " requests/s",
      "(target: under +1 ms)",
    );
  } finally {
    await stack.close();
    await emulator.close();
    await smtp.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
