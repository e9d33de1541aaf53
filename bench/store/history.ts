/**
 * Decision-history benchmark on the embedded store: seeds a journal directly (one fsync per decision
 * would take minutes), prints the first and second open times, then p50/p95 of a first page, a
 * filtered page and a detail read, against a full mingo scan that must give the same answers.
 *
 *   npm run bench:history
 *   BENCH_DECISIONS=100000 BENCH_USERS=1000 BENCH_RUNS=200 BENCH_BASELINE_RUNS=20 BENCH_WARMUP=20 BENCH_SEED=7 npm run bench:history
 * Exits with status 1 when a p95 misses the 50 ms target or an answer differs from the full scan.
 */
import type { StoredDecision } from "@sd/contracts";
import { find as mingoFind, Query } from "mingo";
import type { Criteria } from "mingo/types";
import { openStore, type DecisionDocument, type Store } from "@sd/store";
import { decisionListFilter, NEWEST_FIRST, type DecisionListQuery } from "@sd/store/decisions/list-query";
import { fromDecisionDocument } from "@sd/store/decisions/mapping";
import { MINGO_OPTIONS } from "@sd/store/drivers/embedded/mingo-options";
import { DAY, decisionsJournal, percentiles, positiveInteger, printTable, replayedDecisions, runInTempDir, seededRandom, timeRuns, type Timing } from "./support";

const DECISIONS = positiveInteger("BENCH_DECISIONS", 100_000);
const USERS = positiveInteger("BENCH_USERS", 1_000);
const RUNS = positiveInteger("BENCH_RUNS", 200);
const BASELINE_RUNS = positiveInteger("BENCH_BASELINE_RUNS", 20);
const WARMUP = positiveInteger("BENCH_WARMUP", 20);
const SEED = positiveInteger("BENCH_SEED", 7);
const PAGE_SIZE = 50;
const TARGET_P95_MS = 50;

const END = Date.UTC(2025, 0, 1);
const SPAN_DAYS = 365;
const TOPICS = ["database", "framework", "office", "vendor", "laptop", "holiday", "logo", "hire", "launch", "budget", "cloud", "api", "editor", "coffee", "roadmap", "tea", "font", "car", "phone", "queue"];
const CATEGORIES = ["Postgres", "MongoDB", "React", "Vue", "Svelte", "Approve", "Reject", "Escalate", "Yes", "No", "Later", "Now", "Blue", "Green", "Red", "AWS", "GCP", "Azure", "Mac", "Linux", "Windows", "Tea", "Coffee", "Go", "Rust", "TypeScript", "Python", "Kotlin", "Remote", "Office", "Q1", "Q2", "Q3", "Q4", "Small", "Medium", "Large", "Buy", "Build", "Wait"];
const PROVIDERS = ["openai", "gemini", "claude"];

const { random, pick } = seededRandom(SEED);
const userId = (n: number) => `user-${String(n).padStart(4, "0")}`;

function makeDecision(n: number): StoredDecision {
  const categories = [...new Set(Array.from({ length: 2 + Math.floor(random() * 4) }, () => pick(CATEGORIES)))];
  const votes = PROVIDERS.map(() => pick(categories));
  const counts: Record<string, number> = Object.fromEntries(categories.map((category) => [category, votes.filter((vote) => vote === category).length]));
  const top = Object.entries(counts).sort((a, b) => b[1] - a[1]);
  const decided = top[0] && top[0][1] >= 2 ? top[0][0] : null;
  const user = userId(Math.floor(random() * USERS));
  const topic = pick(TOPICS);
  return {
    id: `dec-${String(n).padStart(6, "0")}`,
    question: `Which ${categories.slice(0, 2).join(" or ")} for the ${topic} (${n})?`,
    timestamp: new Date(END - Math.floor(random() * SPAN_DAYS * DAY)),
    categories,
    final_decision: decided,
    vote_counts: counts,
    total_votes: PROVIDERS.length,
    context_explanation: decided ? `${counts[decided]} of ${PROVIDERS.length} models chose ${decided}.` : "The models did not agree.",
    individual_responses: Object.fromEntries(PROVIDERS.map((provider, i) => [provider, votes[i] ?? null])),
    raw_responses: Object.fromEntries(PROVIDERS.map((provider, i) => [provider, `${votes[i]}. It fits the ${topic} best.`])),
    confidence_scores: Object.fromEntries(PROVIDERS.map((provider) => [provider, Math.round(random() * 100) / 100])),
    rationales: Object.fromEntries(PROVIDERS.map((provider, i) => [provider, `${votes[i]} suits a ${topic} of this size.`])),
    model_versions: { openai: "gpt-4o-mini", gemini: "gemini-2.0-flash", claude: "claude-3-5-haiku" },
    error_details: {},
    processing_time_ms: 800 + Math.floor(random() * 4000),
    ensemble_mode: "majority_voting",
    is_authenticated: true,
    user_id: user,
    user_ip: "203.0.113.7",
    user_email: `${user}@example.com`,
    images: [],
    // Fixed, not drawn from `random`: drawing more would change every decision generated after this one.
    api_key_id: null,
    token_usage: Object.fromEntries(PROVIDERS.map((provider) => [provider, { input_tokens: 120, output_tokens: 40 }])),
    cost_usd: 0.0001,
    model_latencies_ms: Object.fromEntries(PROVIDERS.map((provider) => [provider, 900])),
    model_costs_usd: Object.fromEntries(PROVIDERS.map((provider) => [provider, 0.0001 / PROVIDERS.length])),
  };
}

/** Every decision, then a later version of every tenth, as the store would have written them. */
async function seed(dataDir: string): Promise<{ decisions: StoredDecision[]; journalLines: number }> {
  const journal = decisionsJournal();
  const decisions: StoredDecision[] = [];
  for (let n = 0; n < DECISIONS; n += 1) {
    const decision = makeDecision(n);
    decisions.push(decision);
    await journal.put(decision, n);
  }
  // A later version of every tenth decision (a late vote), so the journal is not yet a snapshot.
  for (let n = 0; n < DECISIONS; n += 10) {
    const decision = decisions[n] as StoredDecision;
    decision.model_versions = { ...decision.model_versions, claude: "claude-late" };
    await journal.put(decision, n);
  }
  await journal.write(dataDir);
  return { decisions, journalLines: journal.lines };
}

async function timedOpen(dataDir: string): Promise<{ store: Store; ms: number }> {
  const started = performance.now();
  const store = await openStore({ mongoUrl: null, dataDir });
  return { store, ms: performance.now() - started };
}

interface Answer {
  ids: string[];
  total: number;
}

/** One kind of query: the store's answer, and the same query by a full scan. */
interface Scenario {
  name: string;
  viaStore(run: number): Promise<Answer>;
  viaFullScan(run: number, all: DecisionDocument[]): Answer;
}

function scenarios(store: Store, decisions: StoredDecision[]): Scenario[] {
  // Inputs are drawn up front, so the store and the full scan answer identical queries.
  const runs = Math.max(RUNS, BASELINE_RUNS) + WARMUP;
  const users = Array.from({ length: runs }, () => userId(Math.floor(random() * USERS)));
  const filtered = Array.from({ length: runs }, (): DecisionListQuery & { userId: string } => {
    const from = END - Math.floor(random() * SPAN_DAYS * DAY);
    return {
      userId: userId(Math.floor(random() * USERS)),
      limit: PAGE_SIZE,
      offset: 0,
      category: pick(CATEGORIES),
      question: pick(TOPICS).toUpperCase(),
      dateFrom: new Date(from - 120 * DAY),
      dateTo: new Date(from),
    };
  });
  const details = Array.from({ length: runs }, () => pick(decisions));
  const at = <T>(items: T[], run: number) => items[run % items.length] as T;

  const pageByScan = (query: DecisionListQuery, all: DecisionDocument[]): Answer => {
    const filter = decisionListFilter(query) as Criteria<DecisionDocument>;
    const docs = mingoFind<DecisionDocument, DecisionDocument>(all, filter, undefined, MINGO_OPTIONS).sort(NEWEST_FIRST).skip(query.offset).limit(query.limit).all();
    const test = new Query<DecisionDocument>(filter, MINGO_OPTIONS);
    let total = 0;
    for (const doc of all) if (test.test(doc)) total += 1;
    return { ids: structuredClone(docs).map(fromDecisionDocument).map((decision) => decision.id), total };
  };
  const pageAnswer = (page: { decisions: StoredDecision[]; total: number }): Answer => ({ ids: page.decisions.map((decision) => decision.id), total: page.total });

  return [
    {
      name: "first page (limit 50)",
      viaStore: async (run) => pageAnswer(await store.decisions.page({ userId: at(users, run), limit: PAGE_SIZE, offset: 0 })),
      viaFullScan: (run, all) => pageByScan({ userId: at(users, run), limit: PAGE_SIZE, offset: 0 }, all),
    },
    {
      name: "filtered page (category + question + dates)",
      viaStore: async (run) => pageAnswer(await store.decisions.page(at(filtered, run))),
      viaFullScan: (run, all) => pageByScan(at(filtered, run), all),
    },
    {
      name: "detail read (findOwned)",
      viaStore: async (run) => {
        const decision = at(details, run);
        const found = await store.decisions.findOwned(decision.id, decision.user_id ?? "");
        return { ids: found ? [found.id] : [], total: found ? 1 : 0 };
      },
      viaFullScan: (run, all) => {
        const decision = at(details, run);
        const docs = mingoFind<DecisionDocument, DecisionDocument>(all, { _id: { $eq: decision.id }, user_id: { $eq: decision.user_id } } as Criteria<DecisionDocument>, undefined, MINGO_OPTIONS).limit(1).all();
        const ids = structuredClone(docs).map(fromDecisionDocument).map((found) => found.id);
        return { ids, total: ids.length };
      },
    },
  ];
}

async function main(dataDir: string): Promise<boolean> {
  let failed = false;
  console.log(`Seeding ${DECISIONS.toLocaleString("en")} decisions over ${USERS.toLocaleString("en")} users in ${dataDir} ...`);
  const seedStarted = performance.now();
  const { decisions, journalLines } = await seed(dataDir);
  console.log(`  seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (${journalLines.toLocaleString("en")} journal lines)`);

  const first = await timedOpen(dataDir);
  const count = await first.store.decisions.count();
  await first.store.close();
  const second = await timedOpen(dataDir);
  const store = second.store;
  console.log(`  open with replay + compaction: ${first.ms.toFixed(0)} ms (${count.toLocaleString("en")} decisions)`);
  console.log(`  open with replay of a compact journal: ${second.ms.toFixed(0)} ms`);

  // The baseline's documents: the same journal, replayed without the store's lookup tables.
  const all = await replayedDecisions(dataDir);
  const rows: { name: string; indexed: Timing; scan: Timing; mismatches: number }[] = [];
  try {
    for (const scenario of scenarios(store, decisions)) {
      await timeRuns(WARMUP, (run) => scenario.viaStore(RUNS + run));
      const indexed = (await timeRuns(RUNS, (run) => scenario.viaStore(run))).timing;
      const scanSamples: number[] = [];
      let mismatches = 0;
      for (let run = 0; run < BASELINE_RUNS; run += 1) {
        const started = performance.now();
        const expected = scenario.viaFullScan(run, all);
        scanSamples.push(performance.now() - started);
        const actual = await scenario.viaStore(run);
        if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches += 1;
      }
      rows.push({ name: scenario.name, indexed, scan: percentiles(scanSamples), mismatches });
    }
  } finally {
    await store.close();
  }

  const header = ["query", "runs", "p50 ms", "p95 ms", "full scan runs", "scan p50 ms", "scan p95 ms", "speed-up p50", "same answers", `p95 < ${TARGET_P95_MS} ms`];
  const table = rows.map((row) => {
    const ok = row.indexed.p95 < TARGET_P95_MS;
    failed ||= !ok || row.mismatches > 0;
    return [
      row.name,
      String(row.indexed.runs),
      row.indexed.p50.toFixed(2),
      row.indexed.p95.toFixed(2),
      String(row.scan.runs),
      row.scan.p50.toFixed(1),
      row.scan.p95.toFixed(1),
      `${(row.scan.p50 / row.indexed.p50).toFixed(0)}x`,
      row.mismatches === 0 ? "yes" : `NO (${row.mismatches})`,
      ok ? "yes" : "NO",
    ];
  });
  console.log("");
  printTable(header, table);
  return !failed;
}

await runInTempDir("sd-bench-history-", main);
