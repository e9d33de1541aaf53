/**
 * What the benches share (the store's here, and services/all-in-one/bench): settings from the
 * environment, a seeded PRNG, timing, percentiles and medians, a closed loop of concurrent users,
 * seeding the decisions journal directly, reading it back for a full-scan baseline, a temp data
 * dir, and printing the results table.
 */
import type { StoredDecision } from "@sd/contracts";
import { setTimeout as delay } from "node:timers/promises";
import { isDeepStrictEqual } from "node:util";
import { decisionsCollection, type DecisionDocument } from "../src/decisions";
import { toDecisionDocument } from "../src/decisions/mapping";
import { writeFileAtomically } from "../src/drivers/embedded/durable-files";
import { journalPath } from "../src/drivers/embedded/embedded-collection";
import { encodeJournalLine } from "../src/drivers/embedded/journal-format";
import { replayJournal } from "../src/drivers/embedded/journal-replay";
import { castAndValidate, detachedModel } from "../src/drivers/embedded/schema-models";
import { makeTempDir } from "../src/testing/temp-dir";

export const DAY = 86_400_000;

/** The environment variable `name` as a positive whole number, or `fallback` when it is unset or blank. */
export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got ${JSON.stringify(raw)}`);
  return value;
}

/** A small seeded PRNG (mulberry32), so every run measures the same data and the same queries. */
export function seededRandom(seed: number): { random: () => number; pick: <T>(items: readonly T[]) => T } {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  return { random, pick };
}

export interface Timing {
  p50: number;
  p95: number;
  p99: number;
  runs: number;
}

/** The nearest-rank percentile `p` (0-100) of ascending `sorted` values (NaN when there are none). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export function percentiles(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), runs: sorted.length };
}

/** The median of `values` (the mean of the middle two for an even count; NaN when there are none). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Runs `task(i)` for i from 0 to count-1 with at most `concurrency` at once (a closed loop of
 * `concurrency` users); returns the seconds it took. With `rampMs`, the users join one after
 * another, evenly over that time, instead of all at the same instant.
 */
export async function closedLoop(count: number, concurrency: number, task: (i: number) => Promise<unknown>, rampMs = 0): Promise<number> {
  let next = 0;
  const started = performance.now();
  const users = Math.min(concurrency, count);
  await Promise.all(
    Array.from({ length: users }, async (_, user) => {
      if (rampMs > 0 && user > 0) await delay((rampMs * user) / users);
      while (next < count) await task(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Calls `run(0)` … `run(runs - 1)` one after another, timing each; returns the timings and the last answer. */
export async function timeRuns<T>(runs: number, run: (i: number) => T | Promise<T>): Promise<{ timing: Timing; last: T | undefined }> {
  const samples: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    last = await run(i);
    samples.push(performance.now() - started);
  }
  return { timing: percentiles(samples), last };
}

/**
 * The decisions journal, written directly in its on-disk format (one fsync per decision through the
 * store would take minutes): one put line per document version. A version put with `n % 50 === 0` is
 * also cast and validated by the decisions schema and must come out unchanged, which shows the
 * journal holds what insertOne would have written (validating all of them would triple the seeding).
 */
export function decisionsJournal(): { put(decision: StoredDecision, n: number): Promise<void>; readonly lines: number; write(dataDir: string): Promise<void> } {
  const model = detachedModel(decisionsCollection.name, decisionsCollection.schema);
  const lines: string[] = [];
  return {
    async put(decision, n) {
      const doc = toDecisionDocument(decision);
      if (n % 50 === 0 && !isDeepStrictEqual(await castAndValidate<DecisionDocument>(model, doc), doc)) {
        throw new Error(`Seeded document ${doc._id} is not what the decisions schema stores`);
      }
      lines.push(encodeJournalLine({ op: "put", doc }));
    },
    get lines() {
      return lines.length;
    },
    write: (dataDir) => writeFileAtomically(journalPath(dataDir, decisionsCollection.name), lines),
  };
}

/** Every decision in the data dir's journal, replayed without the store's lookup tables: what a full-scan baseline reads. */
export async function replayedDecisions(dataDir: string): Promise<DecisionDocument[]> {
  return [...(await replayJournal<DecisionDocument>(journalPath(dataDir, decisionsCollection.name))).docs.values()];
}

/**
 * Runs a bench in a fresh temp data dir and deletes the dir afterwards; the exit status becomes 1
 * when the bench returns false (a target missed or an answer that differs from the baseline).
 */
export async function runInTempDir(prefix: string, bench: (dataDir: string) => Promise<boolean>): Promise<void> {
  const dir = await makeTempDir(prefix);
  let ok: boolean;
  try {
    ok = await bench(dir.path);
  } finally {
    await dir.remove();
  }
  if (!ok) process.exitCode = 1;
}

/** A Markdown table: the first column left-aligned, the others right-aligned. */
export function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((width, i) => (i === 0 ? `${"-".repeat(width + 1)}-` : `${"-".repeat(width + 1)}:`)).join("|")}|`);
  for (const row of rows) console.log(line(row));
}
