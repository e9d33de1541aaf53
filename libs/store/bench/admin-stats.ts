/**
 * Admin statistics benchmark on the embedded store: p50/p95 of each statistic over BENCH_DECISIONS
 * seeded decisions (journal written directly; every 50th is cast by the schema as a check), against
 * mingo without the compiled fast path as the baseline, which must give the same answers.
 *
 *   npm run bench:admin
 *   BENCH_DECISIONS=100000 BENCH_RUNS=50 BENCH_BASELINE_RUNS=3 BENCH_WARMUP=5 npm run bench:admin
 * Exits with status 1 when the usage stats' p95 misses 200 ms or an answer differs from the baseline.
 */
import { isDeepStrictEqual } from "node:util";
import { aggregate } from "mingo";
import { ADMIN_PERIODS, type AdminPeriod, type StoredDecision } from "@sd/contracts";
import type { Pipeline } from "../src/collection";
import type { DecisionDocument, StatsWindow } from "../src/decisions";
import { healthFiguresPipeline, recentDecisionsPipeline, toHealthFigures, toRecentDecision, toUsageStats, usageStatsPipeline } from "../src/decisions/admin-stats";
import { MINGO_OPTIONS } from "../src/drivers/embedded/mingo-options";
import { openStore, type Store } from "../src/store";
import { sampleDecision } from "../src/testing/sample-decision";
import { DAY, decisionsJournal, positiveInteger, printTable, replayedDecisions, runInTempDir, seededRandom, timeRuns } from "./support";

const DECISIONS = positiveInteger("BENCH_DECISIONS", 100_000);
const RUNS = positiveInteger("BENCH_RUNS", 50);
const BASELINE_RUNS = positiveInteger("BENCH_BASELINE_RUNS", 3);
const WARMUP = positiveInteger("BENCH_WARMUP", 5);
const TARGET_P95_MS = 200;
const NOW = new Date();
const CATEGORIES = ["Postgres", "MongoDB", "React", "Vue", "Approve", "Reject", "Yes", "No", "AWS", "GCP", "Go", "Rust", "TypeScript", "Python"];

const { random, pick } = seededRandom(9);

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
  const journal = decisionsJournal();
  for (let n = 0; n < DECISIONS; n += 1) await journal.put(makeDecision(n), n);
  await journal.write(dataDir);
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

async function main(dataDir: string): Promise<boolean> {
  let failed = false;
  console.log(`Seeding ${DECISIONS.toLocaleString("en")} decisions over the last 30 days in ${dataDir} ...`);
  const started = performance.now();
  await seed(dataDir);
  console.log(`  seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const store = await openStore({ mongoUrl: null, dataDir });
  const all = await replayedDecisions(dataDir);
  const rows: string[][] = [];
  try {
    console.log(`  ${(await store.decisions.count()).toLocaleString("en")} decisions stored; measuring ...`);
    for (const scenario of scenarios(store)) {
      await timeRuns(WARMUP, () => scenario.viaStore());
      const measured = await timeRuns(RUNS, () => scenario.viaStore());
      const baseline = await timeRuns(BASELINE_RUNS, () => scenario.viaFullScan(all));
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
  return !failed;
}

await runInTempDir("sd-bench-admin-", main);
