/**
 * History export benchmark on the embedded store: one user's whole history of N decisions exported
 * as CSV through the export use case, streamed into a sink that takes each chunk as a socket would.
 * Each size runs in a fresh child process (so one size's heap does not colour the next); each
 * prints its time and the peak RSS growth over the store's own footprint during the export, next
 * to the same CSV built in memory first (what a non-streamed export would do) as the baseline.
 * Constant memory: the streamed growth does not scale with N, the in-memory one does.
 *
 *   npm run bench:export
 *   BENCH_EXPORT_SIZES=10000,100000 npm run bench:export
 * Exits with status 1 when the streamed growth at the largest size is more than twice the
 * smallest's (plus 16 MB of noise), or a row is missing.
 */
import { fork } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { StoredDecision } from "@sd/contracts";
import { openStore } from "@sd/store";
import { sampleDecision } from "@sd/store/testing/sample-decision";
import { HistoryExportUseCases } from "../../services/gateway/src/use-cases/history-export";
import { decisionsJournal, printTable, runInTempDir } from "./support";

const USER = "exporter";
const MB = 1024 * 1024;
const NOISE_MB = 16;

interface Result {
  decisions: number;
  rows: number;
  bytes: number;
  ms: number;
  storeRssMb: number;
  /** Peak RSS over the store's own footprint while exporting. */
  rssGrowthMb: number;
  /** Peak of the V8 heap plus buffers over the same footprint. */
  heapGrowthMb: number;
}

type Mode = "seed" | "streamed" | "in-memory";

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const heap = () => {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external + usage.arrayBuffers;
};

function decision(n: number): StoredDecision {
  return sampleDecision({
    id: `dec-${String(n).padStart(7, "0")}`,
    user_id: USER,
    question: `Which option for project ${n}, given "budget", scope, and a team of ${n % 12}?`,
    timestamp: new Date(Date.UTC(2025, 0, 1) - n * 60_000),
  });
}

async function seed(dataDir: string, decisions: number): Promise<void> {
  const journal = decisionsJournal();
  for (let n = 0; n < decisions; n += 1) await journal.put(decision(n), n);
  await journal.write(dataDir);
}

/**
 * Opens the seeded store and exports the whole history as CSV: streamed into a sink that takes each
 * chunk as a socket would, or (the baseline) built in memory first, as a non-streamed export would.
 */
async function measure(dataDir: string, decisions: number, mode: "streamed" | "in-memory"): Promise<Result> {
  const store = await openStore({ mongoUrl: null, dataDir });
  try {
    const exports = new HistoryExportUseCases(store);
    gc();
    const base = { rss: process.memoryUsage.rss(), heap: heap() };
    const peak = { ...base };
    const sample = () => {
      peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
      peak.heap = Math.max(peak.heap, heap());
    };
    let bytes = 0;
    let rows = -1; // the header row
    const count = (chunk: string) => {
      bytes += Buffer.byteLength(chunk);
      for (let i = chunk.indexOf("\r\n"); i !== -1; i = chunk.indexOf("\r\n", i + 2)) rows += 1;
      sample();
    };
    const started = performance.now();
    if (mode === "streamed") {
      await pipeline(
        Readable.from(exports.export(USER, {}, "csv")),
        new Writable({
          decodeStrings: false,
          highWaterMark: 64 * 1024,
          write(chunk: string, _encoding, done) {
            count(chunk);
            done();
          },
        }),
      );
    } else {
      const parts: string[] = [];
      for await (const chunk of exports.export(USER, {}, "csv")) {
        parts.push(chunk);
        sample();
      }
      count(parts.join(""));
    }
    const ms = performance.now() - started;
    return { decisions, rows, bytes, ms, storeRssMb: base.rss / MB, rssGrowthMb: (peak.rss - base.rss) / MB, heapGrowthMb: (peak.heap - base.heap) / MB };
  } finally {
    await store.close();
  }
}

/** Runs one step in a child process of its own (tsx's loader and --expose-gc carried over), so no step's heap colours another's. */
function inChild(mode: Mode, dataDir: string, decisions: number): Promise<Result | null> {
  return new Promise((resolve, reject) => {
    const child = fork(process.argv[1]!, [], { execArgv: [...process.execArgv, "--expose-gc"], env: { ...process.env, BENCH_EXPORT_CHILD: JSON.stringify({ mode, dataDir, decisions }) } });
    let result: Result | null = null;
    child.on("message", (message) => (result = message as Result));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve(result) : reject(new Error(`the ${mode} run of ${decisions} decisions exited with ${code}`))));
  });
}

const child = process.env.BENCH_EXPORT_CHILD;
if (child) {
  const { mode, dataDir, decisions } = JSON.parse(child) as { mode: Mode; dataDir: string; decisions: number };
  if (mode === "seed") await seed(dataDir, decisions);
  else process.send?.(await measure(dataDir, decisions, mode));
} else {
  const sizes = (process.env.BENCH_EXPORT_SIZES ?? "10000,100000").split(",").map((size) => Number(size.trim()));
  if (sizes.some((size) => !Number.isInteger(size) || size <= 0)) throw new Error("BENCH_EXPORT_SIZES must be positive whole numbers, comma-separated");
  const rows: { streamed: Result; inMemory: Result }[] = [];
  for (const size of sizes) {
    await runInTempDir("sd-bench-export-", async (dataDir) => {
      await inChild("seed", dataDir, size);
      const streamed = await inChild("streamed", dataDir, size);
      const inMemory = await inChild("in-memory", dataDir, size);
      if (!streamed || !inMemory) throw new Error("a run answered nothing");
      rows.push({ streamed, inMemory });
      return true;
    });
  }
  const mb = (value: number) => value.toFixed(1);
  printTable(
    ["decisions", "rows", "CSV MB", "streamed ms", "store RSS MB", "streamed: peak RSS / heap growth MB", "built in memory: peak RSS / heap growth MB"],
    rows.map(({ streamed: s, inMemory: m }) => [String(s.decisions), String(s.rows), mb(s.bytes / MB), s.ms.toFixed(0), mb(s.storeRssMb), `${mb(s.rssGrowthMb)} / ${mb(s.heapGrowthMb)}`, `${mb(m.rssGrowthMb)} / ${mb(m.heapGrowthMb)}`]),
  );
  const smallest = rows[0]!.streamed;
  const largest = rows.at(-1)!.streamed;
  const missing = rows.filter(({ streamed }) => streamed.rows !== streamed.decisions);
  const constant = largest.rssGrowthMb <= 2 * Math.max(smallest.rssGrowthMb, 0) + NOISE_MB;
  console.log(`\nStreamed peak RSS growth at ${largest.decisions} vs ${smallest.decisions} decisions: ${mb(largest.rssGrowthMb)} MB vs ${mb(smallest.rssGrowthMb)} MB (${constant ? "constant" : "GROWS with the history"}).`);
  if (missing.length > 0) console.log(`Rows missing: ${missing.map(({ streamed }) => `${streamed.rows} of ${streamed.decisions}`).join(", ")}`);
  if (!constant || missing.length > 0) process.exitCode = 1;
}
