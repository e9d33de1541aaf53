/**
 * Write-path benchmark of the embedded store: for each concurrency in BENCH_CONCURRENCY, closed-loop
 * clients insert decisions as the aggregator does (`insertOnce`) and through the collection's
 * `insertOne`; prints inserts/s, latency, CPU and journal flushes per insert, then checks on reopening
 * that every acknowledged decision was replayed.
 *
 *   npm run bench:store
 *   BENCH_INSERTS=5000 BENCH_WARMUP=500 BENCH_CONCURRENCY=1,20,100,200 npm run bench:store
 */
import type { StoredDecision } from "@sd/contracts";
import { createDecisionRepository, decisionRollupsCollection, decisionsCollection, type DecisionDocument, type DecisionRepository, type RollupDocument } from "@sd/store";
import { toDecisionDocument } from "@sd/store/decisions/mapping";
import { EmbeddedCollection } from "@sd/store/drivers/embedded/embedded-collection";
import { sampleDecision } from "@sd/store/testing/sample-decision";
import { percentiles, positiveInteger, printTable, runInTempDir } from "./support";

const INSERTS = positiveInteger("BENCH_INSERTS", 2_000);
const WARMUP = positiveInteger("BENCH_WARMUP", 300);
const CONCURRENCY = concurrencies(process.env.BENCH_CONCURRENCY ?? "1,20,100");

/** One way of writing a decision; resolves true when it was inserted. */
interface WritePath {
  name: string;
  insert(decisions: DecisionRepository, collection: EmbeddedCollection<DecisionDocument>, decision: StoredDecision): Promise<boolean>;
}

const WRITE_PATHS: WritePath[] = [
  { name: "decisions.insertOnce", insert: (decisions, _collection, decision) => decisions.insertOnce(decision) },
  { name: "insertOne (cast)", insert: (_decisions, collection, decision) => collection.insertOne(toDecisionDocument(decision)).then(() => true) },
];

interface Measured {
  path: string;
  concurrency: number;
  insertsPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPerInsert: number;
  /** Journal flushes (one durable append each) per insert: below 1 when concurrent writes share a flush. */
  flushesPerInsert: number;
  replayed: boolean;
}

async function measure(dataDir: string, path: WritePath, concurrency: number): Promise<Measured> {
  let collection = await EmbeddedCollection.open<DecisionDocument>(decisionsCollection, dataDir);
  // The admin statistics' rollups are written as the product writes them, batched after the inserts.
  const rollups = await EmbeddedCollection.open<RollupDocument>(decisionRollupsCollection, dataDir);
  const decisions = createDecisionRepository(collection, rollups);
  let next = 0;
  const insertUpTo = async (end: number, latencies: number[] | null) => {
    const client = async () => {
      // An index is claimed only below `end`, so the measured run starts right after the warm-up.
      while (next < end) {
        const n = next++;
        const started = performance.now();
        const decision = sampleDecision({ id: `bench-${n}`, user_id: `user-${n % 97}`, timestamp: new Date(Date.UTC(2025, 0, 1) + n * 1000) });
        const inserted = await path.insert(decisions, collection, decision);
        latencies?.push(performance.now() - started);
        if (!inserted) throw new Error(`bench-${n} was already stored`);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
  };

  await insertUpTo(WARMUP, null);
  const latencies: number[] = [];
  const flushesBefore = collection.journalFlushes;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  await insertUpTo(WARMUP + INSERTS, latencies);
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const flushesAfter = collection.journalFlushes;

  await decisions.flushed();
  await Promise.all([collection.close(), rollups.close()]);
  collection = await EmbeddedCollection.open<DecisionDocument>(decisionsCollection, dataDir);
  const replayed = (await collection.countDocuments({})) === WARMUP + INSERTS;
  await collection.close();

  const { p50, p99 } = percentiles(latencies);
  return {
    path: path.name,
    concurrency,
    insertsPerSecond: (INSERTS / elapsed) * 1000,
    p50,
    p99,
    cpuMsPerInsert: (cpu.user + cpu.system) / 1000 / INSERTS,
    flushesPerInsert: (flushesAfter - flushesBefore) / INSERTS,
    replayed,
  };
}

function concurrencies(raw: string): number[] {
  const values = raw.split(",").map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value <= 0)) {
    throw new Error(`BENCH_CONCURRENCY must be positive whole numbers separated by commas, got ${JSON.stringify(raw)}`);
  }
  return values;
}

const results: Measured[] = [];
for (const path of WRITE_PATHS) {
  for (const concurrency of CONCURRENCY) {
    await runInTempDir("sd-bench-inserts-", async (dataDir) => {
      const result = await measure(dataDir, path, concurrency);
      results.push(result);
      return result.replayed;
    });
  }
}

console.log(`Embedded store: ${INSERTS} measured decision inserts per row after ${WARMUP} unmeasured (Node ${process.version})`);
printTable(
  ["write", "concurrency", "inserts/s", "p50 ms", "p99 ms", "CPU ms/insert", "flushes/insert", "all replayed"],
  results.map((row) => [
    row.path,
    String(row.concurrency),
    row.insertsPerSecond.toFixed(0),
    row.p50.toFixed(2),
    row.p99.toFixed(2),
    row.cpuMsPerInsert.toFixed(3),
    row.flushesPerInsert.toFixed(3),
    row.replayed ? "yes" : "NO",
  ]),
);
