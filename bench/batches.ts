/**
 * `npm run bench:batches`: one batch of BENCH_BATCH_LINES decisions (10,000) on the simulated models
 * a user gets with zero configuration (SIMULATED_LATENCY_MS and every limit at its default; only the
 * monthly API quota is raised to fit the batch), run by `npm start`'s all-in-one process on a
 * private redis-server. It reports the batch's wall time and decisions per second, Redis's memory
 * peak over the batch (INFO used_memory_peak, reset by CONFIG RESETSTAT before), and the latency of
 * playground decisions (the website's public endpoint) while the batch runs against the same load
 * without it, measured in the same run, with the ratio against the 1.5x target.
 *
 *   npm run bench:batches
 *   BENCH_BATCH_LINES=2000 npm run bench:batches
 *
 * Variables (defaults): BENCH_BATCH_LINES (10000); BENCH_PLAYGROUND_N (60) playground decisions per
 * phase, BENCH_PLAYGROUND_C (2) at once; BENCH_SIMULATED_LATENCY_MS (the product's default).
 */
import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { API_KEY_HEADER, ApiKeySchema, BatchSchema, type Batch } from "@sd/contracts";
import { callApi } from "@sd/testing/history";
import { PrivateRedis } from "@sd/testing/private-redis";
import { ServiceProcess, freePort, waitUntilReady } from "@sd/testing/processes";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { closedLoop, percentiles, positiveInteger, printTable, type Timing } from "./kit";

const LINES = positiveInteger("BENCH_BATCH_LINES", 10_000);
const PLAYGROUND_N = positiveInteger("BENCH_PLAYGROUND_N", 60);
const PLAYGROUND_C = positiveInteger("BENCH_PLAYGROUND_C", 2);
const SIMULATED_LATENCY_MS = process.env.BENCH_SIMULATED_LATENCY_MS?.trim();
/** Playground latency during the batch, against without it: at most this many times (issue 32). */
const TARGET_RATIO = 1.5;
const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const UNLIMITED = "1000000";

const started = performance.now();
const progress = (line: string) => process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

/** Playground decisions in a closed loop of PLAYGROUND_C users; each must answer 200. */
async function playground(url: string, phase: string): Promise<Timing> {
  const samples: number[] = [];
  await closedLoop(PLAYGROUND_N, PLAYGROUND_C, async (i) => {
    const sent = performance.now();
    const response = await fetch(`${url}${PUBLIC}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: `Playground ${phase} ${i}: ship it?`, categories: ["Yes", "No"] }),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`a playground decision (${phase}) answered ${response.status}: ${text}`);
    samples.push(performance.now() - sent);
  });
  return percentiles(samples);
}

async function batchOf(url: string, key: string, id: string): Promise<Batch> {
  const response = await fetch(`${url}/v1/batches/${id}`, { headers: { [API_KEY_HEADER]: key } });
  if (response.status !== 200) throw new Error(`GET /v1/batches/${id} answered ${response.status}: ${await response.text()}`);
  return BatchSchema.parse(await response.json());
}

const ms = (value: number) => `${Math.round(value)} ms`;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main(): Promise<boolean> {
  const dataDir = await mkdtemp(join(tmpdir(), "sd-bench-batches-"));
  const redis = await PrivateRedis.start();
  const smtp = await SmtpCapture.start();
  let service: ServiceProcess | null = null;
  try {
    const port = await freePort();
    // `npm start` for a user: keyless (simulated models), every limit at its default but the
    // per-IP ones (one load generator is one IP) and the monthly API quota (the batch's lines count).
    const env: Record<string, string> = {
      PORT: String(port),
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
      QUEUE_PREFIX: `sdbench-${randomUUID().slice(0, 8)}`,
      SMTP_URL: smtp.url,
      RATE_LIMIT_PER_MINUTE: UNLIMITED,
      RATE_LIMIT_MB_PER_MINUTE: UNLIMITED,
      MAGIC_LINK_PER_IP_PER_HOUR: UNLIMITED,
      API_MONTHLY_QUOTA: String(LINES + 1000),
      API_KEY_RATE_LIMIT_PER_MINUTE: UNLIMITED,
      ...(SIMULATED_LATENCY_MS ? { SIMULATED_LATENCY_MS } : {}),
    };
    service = ServiceProcess.start("all-in-one", env);
    await waitUntilReady(`http://127.0.0.1:${port}/ready`, service);
    const url = await service.gatewayUrl();
    const user = await signInByMail(url, smtp, `bench-${randomUUID().slice(0, 8)}@example.com`);
    const created = await callApi(url, "/api/api-keys", user.tokens.access_token, { body: { name: "bench batches" } });
    if (created.status !== 201) throw new Error(`creating the API key answered ${created.status}: ${created.text}`);
    const key = ApiKeySchema.parse(created.body).keyvalue!;

    progress(`playground alone: ${PLAYGROUND_N} decisions, ${PLAYGROUND_C} at once (after a warm-up of ${PLAYGROUND_C * 2})`);
    await closedLoop(PLAYGROUND_C * 2, PLAYGROUND_C, (i) => fetch(`${url}${PUBLIC}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ question: `Warm-up ${i}?`, categories: ["Yes", "No"] }) }).then((r) => r.text()));
    const alone = await playground(url, "alone");

    const body = Array.from({ length: LINES }, (_, i) => JSON.stringify({ custom_id: `line-${i + 1}`, prompt: `Batch line ${i + 1}: approve it?`, valid_responses: ["Yes", "No"] })).join("\n");
    const peakBefore = Number((await redis.info("memory")).used_memory_peak);
    await redis.command((client) => client.config("RESETSTAT"));
    const peakReset = Number((await redis.info("memory")).used_memory_peak);
    progress(`batch: posting ${LINES.toLocaleString("en-US")} lines (${mb(Buffer.byteLength(body))}); Redis peak ${mb(peakBefore)} before, ${mb(peakReset)} after CONFIG RESETSTAT`);
    const postedAt = performance.now();
    const posted = await fetch(`${url}/v1/batches`, { method: "POST", headers: { [API_KEY_HEADER]: key, "content-type": "application/jsonl" }, body });
    const postedText = await posted.text();
    if (posted.status !== 202) throw new Error(`POST /v1/batches answered ${posted.status}: ${postedText}`);
    const acceptMs = performance.now() - postedAt;
    const batchId = BatchSchema.parse(JSON.parse(postedText)).id;

    // Once the batch has its decisions in flight, the same playground load as before.
    while ((await batchOf(url, key, batchId)).request_counts.completed === 0) await delay(200);
    progress("playground during the batch");
    const during = await playground(url, "during");
    const atEndOfPlayground = await batchOf(url, key, batchId);
    const overlapped = atEndOfPlayground.status === "in_progress";

    let batch = atEndOfPlayground;
    let lastReport = performance.now();
    while (batch.status === "in_progress") {
      await delay(500);
      batch = await batchOf(url, key, batchId);
      if (performance.now() - lastReport > 15_000) {
        lastReport = performance.now();
        progress(`batch: ${batch.request_counts.completed.toLocaleString("en-US")} of ${LINES.toLocaleString("en-US")} decided`);
      }
    }
    const wallMs = performance.now() - postedAt;
    const peak = Number((await redis.info("memory")).used_memory_peak);
    const counts = batch.request_counts;

    console.log(
      `\nBatch of ${LINES.toLocaleString("en-US")} lines on the simulated models (${SIMULATED_LATENCY_MS ? `SIMULATED_LATENCY_MS=${SIMULATED_LATENCY_MS}` : "the product's defaults"}; lifted so one load generator can send it: the per-IP and per-key rate limits, and API_MONTHLY_QUOTA to ${(LINES + 1000).toLocaleString("en-US")}):\n`,
    );
    printTable(
      ["batch", "value"],
      [
        ["status", batch.status],
        ["completed / failed / total", `${counts.completed} / ${counts.failed} / ${counts.total}`],
        ["POST /v1/batches (accept)", ms(acceptMs)],
        ["wall time, POST to completed", `${(wallMs / 1000).toFixed(1)} s`],
        ["decisions/s", ((counts.completed + counts.failed) / (wallMs / 1000)).toFixed(1)],
        ["Redis used_memory_peak during the batch", mb(peak)],
      ],
    );
    console.log(`\nPlayground decisions (${PLAYGROUND_N} per phase, ${PLAYGROUND_C} at once):\n`);
    const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
    const p50Ratio = ratio(during.p50, alone.p50);
    const p99Ratio = ratio(during.p99, alone.p99);
    const verdict = (r: number) => (r <= TARGET_RATIO ? "PASS" : "MISS");
    printTable(
      ["playground", "p50", "p99", "runs"],
      [
        ["without a batch", ms(alone.p50), ms(alone.p99), String(alone.runs)],
        ["during the batch", ms(during.p50), ms(during.p99), String(during.runs)],
        [`ratio (target <= ${TARGET_RATIO}x)`, `${p50Ratio.toFixed(2)}x ${verdict(p50Ratio)}`, `${p99Ratio.toFixed(2)}x ${verdict(p99Ratio)}`, ""],
      ],
    );
    if (!overlapped) console.log(`\nnote: the batch ended (${atEndOfPlayground.status}) before the playground phase did: raise BENCH_BATCH_LINES for a fair "during".`);
    return batch.status === "completed" && counts.completed + counts.failed === LINES && p50Ratio <= TARGET_RATIO && p99Ratio <= TARGET_RATIO;
  } finally {
    await service?.stop("SIGTERM");
    await smtp.close();
    await redis.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

// Interrupted: exit normally, so the product and the private Redis are stopped on the way out.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

main().then(
  (ok) => {
    progress(`done${ok ? "" : " (a target missed or the batch did not complete)"}`);
    process.exit(ok ? 0 : 1);
  },
  (error: unknown) => {
    process.stderr.write(`bench:batches: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
