/**
 * Admin statistics benchmark on the embedded store (issue 9: the usage-stats endpoint's p95 over
 * 100,000 stored decisions under 200 ms).
 *
 * Seeds BENCH_DECISIONS decisions spread over the last 30 days (signed-in and anonymous, some with
 * model errors), writing the decisions journal directly in its on-disk format as bench/history.ts
 * does (every 50th document is cast by the decisions schema and must come out unchanged). Then,
 * per admin statistic and period, measures p50/p95 of the store call over BENCH_RUNS runs after
 * BENCH_WARMUP unmeasured ones, and runs the same pipeline with mingo over every decision (the
 * embedded driver without its compiled fast path) BENCH_BASELINE_RUNS times as the baseline,
 * checking both give the same answer.
 *
 *   npm run bench:admin
 *   BENCH_DECISIONS=100000 BENCH_RUNS=50 BENCH_BASELINE_RUNS=3 BENCH_WARMUP=5 npm run bench:admin
 *
 * Exits with status 1 when the usage stats' p95 misses 200 ms or an answer differs from the baseline.
 */
import { isDeepStrictEqual } from "node:util";
import { aggregate } from "mingo";
import { ADMIN_PERIODS, type AdminPeriod, type StoredDecision } from "@sd/contracts";
import type { Pipeline } from "../src/collection";
import {
  healthFiguresPipeline,
  recentDecisionsPipeline,
  toHealthFigures,
  toRecentDecision,
  toUsageStats,
  usageStatsPipeline,
  type StatsWindow,
} from "../src/decisions/admin-stats";
import { decisionsCollection, type DecisionDocument } from "../src/decisions";
import { toDecisionDocument } from "../src/decisions/mapping";
import { writeFileAtomically } from "../src/drivers/embedded/durable-files";
import { journalPath } from "../src/drivers/embedded/embedded-collection";
import { encodeJournalLine } from "../src/drivers/embedded/journal-format";
import { replayJournal } from "../src/drivers/embedded/journal-replay";
import { MINGO_OPTIONS } from "../src/drivers/embedded/mingo-options";
import { castAndValidate, detachedModel } from "../src/drivers/embedded/schema-models";
import { openStore, type Store } from "../src/store";
import { makeTempDir } from "../src/testing/temp-dir";
import { sampleDecision } from "../src/testing/sample-decision";

const DECISIONS = positiveInteger("BENCH_DECISIONS", 100_000);
const RUNS = positiveInteger("BENCH_RUNS", 50);
const BASELINE_RUNS = positiveInteger("BENCH_BASELINE_RUNS", 3);
const WARMUP = positiveInteger("BENCH_WARMUP", 5);
const TARGET_P95_MS = 200;
const DAY = 86_400_000;
const NOW = new Date();
const CATEGORIES = ["Postgres", "MongoDB", "React", "Vue", "Approve", "Reject", "Yes", "No", "AWS", "GCP", "Go", "Rust", "TypeScript", "Python"];

/** mulberry32: the same data on every run. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = prng(9);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function makeDecision(n: number): StoredDecision {
  const signedIn = random() < 0.7;
  const user = `user-${String(Math.floor(random() * 1000)).padStart(4, "0")}`;
  const failed = random() < 0.08;
  return sampleDecision({
    id: `dec-${String(n).padStart(6, "0")}`,
    question: `Which option for case ${n}?`,
    timestamp: new Date(NOW.getTime() - Math.floor(random() * 30 * DAY)),
    final_decision: random() < 0.1 ? null : pick(CATEGORIES),
    error_details: failed ? { claude: "timeout" } : {},
    processing_time_ms: 800 + Math.floor(random() * 4000),
    is_authenticated: signedIn,
    user_id: signedIn ? user : null,
    user_email: signedIn ? `${user}@example.com` : null,
    user_ip: `203.0.113.${Math.floor(random() * 200)}`,
  });
}

async function seed(dataDir: string): Promise<void> {
  const model = detachedModel(decisionsCollection.name, decisionsCollection.schema);
  const lines: string[] = [];
  for (let n = 0; n < DECISIONS; n += 1) {
    const doc = toDecisionDocument(makeDecision(n));
    if (n % 50 === 0 && !isDeepStrictEqual(await castAndValidate<DecisionDocument>(model, doc), doc)) {
      throw new Error(`Seeded document ${doc._id} is not what the decisions schema stores`);
    }
    lines.push(encodeJournalLine({ op: "put", doc }));
  }
  await writeFileAtomically(journalPath(dataDir, decisionsCollection.name), lines);
}

interface Scenario {
  name: string;
  viaStore(): Promise<unknown>;
  viaFullScan(all: DecisionDocument[]): unknown;
}

function scenarios(store: Store): Scenario[] {
  const list: Scenario[] = [];
  const scan = <T>(all: DecisionDocument[], pipeline: Pipeline) => structuredClone(aggregate(all, pipeline, MINGO_OPTIONS)) as T[];
  for (const period of ADMIN_PERIODS as readonly AdminPeriod[]) {
    const window: StatsWindow = { period, now: NOW };
    list.push(
      {
        name: `usage-stats (${period})`,
        viaStore: () => store.decisions.usageStats(window),
        viaFullScan: (all) => toUsageStats(window, scan<Parameters<typeof toUsageStats>[1] & object>(all, usageStatsPipeline(window))[0]),
      },
      {
        name: `recent-decisions (${period})`,
        viaStore: () => store.decisions.recentDecisions(window),
        viaFullScan: (all) => scan<Parameters<typeof toRecentDecision>[0]>(all, recentDecisionsPipeline(window)).map(toRecentDecision),
      },
      {
        name: `system-health figures (${period})`,
        viaStore: () => store.decisions.healthFigures(window),
        viaFullScan: (all) => toHealthFigures(scan<Parameters<typeof toHealthFigures>[0] & object>(all, healthFiguresPipeline(window))[0]),
      },
    );
  }
  return list;
}

interface Timing {
  p50: number;
  p95: number;
  runs: number;
}

function percentiles(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), runs: sorted.length };
}

async function time(run: () => unknown, runs: number): Promise<{ timing: Timing; last: unknown }> {
  const samples: number[] = [];
  let last: unknown;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    last = await run();
    samples.push(performance.now() - started);
  }
  return { timing: percentiles(samples), last };
}

async function main(): Promise<void> {
  const dir = await makeTempDir("sd-bench-admin-");
  let failed = false;
  try {
    console.log(`Seeding ${DECISIONS.toLocaleString("en")} decisions over the last 30 days in ${dir.path} ...`);
    const started = performance.now();
    await seed(dir.path);
    console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const store = await openStore({ mongoUrl: null, dataDir: dir.path });
    const all = [...(await replayJournal<DecisionDocument>(journalPath(dir.path, decisionsCollection.name))).docs.values()];
    const rows: string[][] = [];
    try {
      console.log(`  ${(await store.decisions.count()).toLocaleString("en")} decisions stored; measuring ...`);
      for (const scenario of scenarios(store)) {
        await time(() => scenario.viaStore(), WARMUP);
        const measured = await time(() => scenario.viaStore(), RUNS);
        const baseline = await time(() => scenario.viaFullScan(all), BASELINE_RUNS);
        const same = isDeepStrictEqual(JSON.parse(JSON.stringify(measured.last)), JSON.parse(JSON.stringify(baseline.last)));
        const gated = scenario.name.startsWith("usage-stats");
        const ok = !gated || measured.timing.p95 < TARGET_P95_MS;
        failed ||= !ok || !same;
        rows.push([
          scenario.name,
          String(measured.timing.runs),
          measured.timing.p50.toFixed(1),
          measured.timing.p95.toFixed(1),
          String(baseline.timing.runs),
          baseline.timing.p50.toFixed(0),
          `${(baseline.timing.p50 / measured.timing.p50).toFixed(0)}x`,
          same ? "yes" : "NO",
          gated ? (ok ? "yes" : "NO") : "-",
        ]);
      }
    } finally {
      await store.close();
    }
    console.log("");
    printTable(["store call", "runs", "p50 ms", "p95 ms", "mingo scan runs", "scan p50 ms", "speed-up p50", "same answer", `p95 < ${TARGET_P95_MS} ms`], rows);
  } finally {
    await dir.remove();
  }
  if (failed) process.exitCode = 1;
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((width, i) => (i === 0 ? `${"-".repeat(width + 1)}-` : `${"-".repeat(width + 1)}:`)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got ${JSON.stringify(raw)}`);
  return value;
}

await main();
