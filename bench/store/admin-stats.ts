/**
 * Admin statistics benchmark on the embedded store: p50/p95 of each admin request (usage stats,
 * system-health figures and recent decisions, for each period) over BENCH_DECISIONS decisions
 * spread over the last 30 days, each answer checked against a full scan (today's aggregation
 * pipelines run by mingo over every decision, `@sd/store/testing/admin-stats-reference`).
 *
 * Seeding: the decisions journal is written directly (support's `decisionsJournal`), as a store
 * written before rollups existed; opening the store then builds the rollups from the decisions,
 * the product's own rebuild at open (timed). BENCH_LIVE more decisions of the last two hours then
 * go through `insertOnce`, the aggregator's write path, which updates the rollups as it writes.
 *
 *   npm run bench:admin
 *   BENCH_DECISIONS=100000 BENCH_RUNS=50 BENCH_WARMUP=5 npm run bench:admin
 * Exits with status 1 when a request's p95 reaches 50 ms or an answer differs from the full scan.
 */
import { isDeepStrictEqual } from "node:util";
import { ADMIN_PERIODS, type StoredDecision } from "@sd/contracts";
import { openStore, type StatsWindow, type Store } from "@sd/store";
import { AdminStatsReference } from "@sd/store/testing/admin-stats-reference";
import { sampleDecision } from "@sd/store/testing/sample-decision";
import { DAY, decisionsJournal, positiveInteger, printTable, runInTempDir, seededRandom, timeRuns, type Timing } from "./support";

const DECISIONS = positiveInteger("BENCH_DECISIONS", 1_000_000);
const LIVE = positiveInteger("BENCH_LIVE", 5_000);
const LIVE_CONCURRENCY = positiveInteger("BENCH_LIVE_CONCURRENCY", 20);
const RUNS = positiveInteger("BENCH_RUNS", 50);
const WARMUP = positiveInteger("BENCH_WARMUP", 5);
const TARGET_P95_MS = 50;
const HOUR = 3_600_000;
const NOW = new Date();
const CATEGORIES = ["Postgres", "MongoDB", "React", "Vue", "Approve", "Reject", "Yes", "No", "AWS", "GCP", "Go", "Rust", "TypeScript", "Python"];

/**
 * The n-th decision, the same on every call (a PRNG seeded by n), so the full-scan reference can
 * be built by generating them again instead of holding a second copy while seeding. Lean: the
 * per-model maps the statistics never read are left empty, so a million fit in memory twice.
 */
function makeDecision(n: number, newest: number, span: number): StoredDecision {
  const { random, pick } = seededRandom(n + 1);
  const signedIn = random() < 0.7;
  const user = `user-${String(Math.floor(random() * 1000)).padStart(4, "0")}`;
  const failed = random() < 0.08;
  return sampleDecision({
    id: `dec-${String(n).padStart(7, "0")}`,
    question: `Which option for case ${n}?`,
    timestamp: new Date(newest - Math.floor(random() * span)),
    final_decision: random() < 0.1 ? null : pick(CATEGORIES),
    categories: ["Yes", "No"],
    vote_counts: { Yes: 2, No: 1 },
    context_explanation: "",
    individual_responses: {},
    raw_responses: {},
    confidence_scores: {},
    rationales: {},
    model_versions: {},
    token_usage: {},
    error_details: failed ? { claude: "timeout" } : {},
    processing_time_ms: 800 + Math.floor(random() * 4000),
    is_authenticated: signedIn,
    user_id: signedIn ? user : null,
    user_email: signedIn ? `${user}@example.com` : null,
    user_ip: `203.0.113.${Math.floor(random() * 200)}`,
  });
}

const seeded = (n: number) => makeDecision(n, NOW.getTime(), 30 * DAY);
const live = (n: number) => makeDecision(DECISIONS + n, NOW.getTime(), 2 * HOUR);

function* allDecisions(): Generator<StoredDecision> {
  for (let n = 0; n < DECISIONS; n += 1) yield seeded(n);
  for (let n = 0; n < LIVE; n += 1) yield live(n);
}

interface Scenario {
  name: string;
  viaStore(): Promise<unknown>;
  viaFullScan(reference: AdminStatsReference): unknown;
}

/** Each admin request; `store` null once it is closed (only the full scans run then). */
function scenarios(store: Store | null): Scenario[] {
  const open = () => {
    if (!store) throw new Error("The store is closed");
    return store.decisions;
  };
  return ADMIN_PERIODS.flatMap((period) => {
    const window: StatsWindow = { period, now: NOW };
    return [
      { name: `usage-stats (${period})`, viaStore: () => open().usageStats(window), viaFullScan: (reference) => reference.usageStats(window) },
      { name: `system-health figures (${period})`, viaStore: () => open().healthFigures(window), viaFullScan: (reference) => reference.healthFigures(window) },
      { name: `recent-decisions (${period})`, viaStore: () => open().recentDecisions(window), viaFullScan: (reference) => reference.recentDecisions(window) },
    ];
  });
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Opens the seeded store, adds the live decisions and times every admin request. A function of its
 * own so the store (a million decisions in memory) is unreachable once it returns.
 */
async function measure(dataDir: string): Promise<Map<string, { timing: Timing; answer: unknown }>> {
  let started = performance.now();
  const store = await openStore({ mongoUrl: null, dataDir });
  console.log(`  opened (journal replayed, rollups built from the decisions) in ${seconds(started)}`);
  const measured = new Map<string, { timing: Timing; answer: unknown }>();
  try {
    started = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: LIVE_CONCURRENCY }, async () => {
        while (next < LIVE) {
          if (!(await store.decisions.insertOnce(live(next++)))) throw new Error("A live decision was already stored");
        }
      }),
    );
    const liveSeconds = (performance.now() - started) / 1000;
    console.log(`  ${LIVE.toLocaleString("en")} more through insertOnce (${LIVE_CONCURRENCY} at a time): ${(LIVE / liveSeconds).toFixed(0)} inserts/s with their rollups`);
    console.log(`  ${(await store.decisions.count()).toLocaleString("en")} decisions stored; measuring ...`);
    for (const scenario of scenarios(store)) {
      await timeRuns(WARMUP, () => scenario.viaStore());
      const { timing, last } = await timeRuns(RUNS, () => scenario.viaStore());
      measured.set(scenario.name, { timing, answer: last });
      console.log(`  ${scenario.name}: p50 ${timing.p50.toFixed(1)} ms, p95 ${timing.p95.toFixed(1)} ms`);
    }
  } finally {
    await store.close();
  }
  return measured;
}

async function main(dataDir: string): Promise<boolean> {
  console.log(`Seeding ${DECISIONS.toLocaleString("en")} decisions over the last 30 days in ${dataDir} (journal written directly) ...`);
  const started = performance.now();
  {
    const journal = decisionsJournal();
    for (let n = 0; n < DECISIONS; n += 1) await journal.put(seeded(n), n);
    await journal.write(dataDir);
  }
  console.log(`  seeded in ${seconds(started)}`);
  const measured = await measure(dataDir);

  console.log("  building the full-scan reference (mingo over every decision) ...");
  const reference = new AdminStatsReference(allDecisions());
  const rows: string[][] = [];
  let failed = false;
  for (const scenario of scenarios(null)) {
    const mine = measured.get(scenario.name);
    if (!mine) throw new Error(`${scenario.name} was not measured`);
    const scanned = await timeRuns(1, () => scenario.viaFullScan(reference));
    const same = isDeepStrictEqual(JSON.parse(JSON.stringify(mine.answer)), JSON.parse(JSON.stringify(scanned.last)));
    const fast = mine.timing.p95 < TARGET_P95_MS;
    failed ||= !same || !fast;
    console.log(`  ${scenario.name}: full scan ${scanned.timing.p50.toFixed(0)} ms, same answer: ${same ? "yes" : "NO"}`);
    rows.push([scenario.name, String(mine.timing.runs), mine.timing.p50.toFixed(1), mine.timing.p95.toFixed(1), scanned.timing.p50.toFixed(0), same ? "yes" : "NO", fast ? "yes" : "NO"]);
  }
  console.log("");
  printTable(["admin request", "runs", "p50 ms", "p95 ms", "full scan ms", "same answer", `p95 < ${TARGET_P95_MS} ms`], rows);
  return !failed;
}

await runInTempDir("sd-bench-admin-", main);
