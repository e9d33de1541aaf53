import type { Collection } from "../collection";
import { bucketsOfDay, COUNTED_PROJECTION, DAY_MS, dayBucket, dayStart, RollupDelta, type CountedDecision } from "./rollup-deltas";
import type { RollupDocument } from "./rollup-schema";
import type { DecisionDocument } from "./schema";

/** Bumped when the rollups' layout changes: a store finding another version rebuilds them all. */
export const ROLLUP_VERSION = 1;
export const ROLLUP_MARKER_ID = "meta";

/** Rollup changes merged while the write before them is in flight, and their outcome. */
interface Batch {
  delta: RollupDelta;
  done: Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Writes rollup changes in batches: changes are merged (sums and maxima merge exactly) for up to
 * `delayMs`, or until someone waits for them (`flushed`), then written as one `upsertMany`. The
 * rollups are rebuilt from the decisions wherever a write is lost, so they need not be durable
 * with each decision, and one rollup write per batch instead of per decision keeps the write path
 * at about one durable flush per decision.
 */
export class RollupWriter {
  #pending: Batch | null = null;
  #inFlight: Promise<void> | null = null;
  #running = false;
  #timer: NodeJS.Timeout | null = null;
  /** Someone waits for the pending changes: write them as soon as the write in flight is done. */
  #urgent = false;

  constructor(
    private readonly rollups: Collection<RollupDocument>,
    /** Told the buckets each write changed, once it is written. */
    private readonly written: (buckets: Set<string>) => void = () => undefined,
    private readonly delayMs = ROLLUP_WRITE_DELAY_MS,
  ) {}

  /** Queues a change; resolves once a write holding it is done, rejects when that write fails. */
  write(delta: RollupDelta): Promise<void> {
    if (delta.size === 0) return Promise.resolve();
    this.#pending ??= newBatch();
    this.#pending.delta.merge(delta);
    if (!this.#running && !this.#timer) this.#timer = setTimeout(() => void this.#drain(), this.delayMs).unref();
    return this.#pending.done;
  }

  /** Writes every change queued so far now; resolves once they are written or have failed. */
  async flushed(): Promise<void> {
    const target = this.#pending?.done ?? this.#inFlight;
    if (this.#pending) {
      this.#urgent = true;
      if (!this.#running) void this.#drain();
    }
    await (target ?? Promise.resolve()).catch(() => undefined);
  }

  /** Writes the pending batch; changes arriving meanwhile wait for the next timer, unless someone waits for them. */
  async #drain(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = this.#pending;
    if (!batch) return;
    this.#pending = null;
    this.#urgent = false;
    this.#running = true;
    this.#inFlight = batch.done;
    try {
      await this.rollups.upsertMany(batch.delta.writes());
      batch.resolve();
    } catch (error) {
      batch.reject(error);
    } finally {
      // Even a failed write may have changed some documents (MongoDB applies a prefix).
      this.written(batch.delta.buckets());
      this.#inFlight = null;
      this.#running = false;
    }
    if (this.#pending && this.#urgent) void this.#drain();
    else if (this.#pending) this.#timer = setTimeout(() => void this.#drain(), this.delayMs).unref();
  }
}

/** How long rollup changes may wait to be merged with later ones before they are written. */
export const ROLLUP_WRITE_DELAY_MS = 200;

function newBatch(): Batch {
  let settle: Pick<Batch, "resolve" | "reject"> | undefined;
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  // Failures are answered to whoever waits; a batch nobody waits for must not be an unhandled rejection.
  done.catch(() => undefined);
  const { resolve, reject } = settle as Pick<Batch, "resolve" | "reject">;
  return { delta: new RollupDelta(), done, resolve, reject };
}

export interface RepairOptions {
  /** The clock's now, in ms. */
  now: number;
  /**
   * How long after a day ends writes to it may still be in flight from other processes; only days
   * ended at least this long ago are checked. 0 when this process is the store's only writer (the
   * embedded store, whose data dir is locked) and no write is in flight (at open).
   */
  settleMs: number;
  /** Check only days starting at or after this (ms). */
  since?: number;
}

/**
 * Checks the rollups against the decisions and rebuilds the days that disagree; answers how many
 * days were rebuilt. With no marker of the current version (a store opened on decisions written
 * before rollups existed, or an older layout) every day is rebuilt and the marker written after.
 *
 * A day is checked by comparing its decision count (a count over the timestamp index) with its
 * day bucket's total. That finds every day a crash left behind: a decision is written before its
 * rollup change, and a rollup change is written in order with its day totals last, so a day whose
 * total is right has all of its hour, user, IP and category counts right too.
 */
export async function repairRollups(decisions: Collection<DecisionDocument>, rollups: Collection<RollupDocument>, options: RepairOptions): Promise<number> {
  const marker = await rollups.findOne({ _id: { $eq: ROLLUP_MARKER_ID } });
  const rebuildAll = marker?.version !== ROLLUP_VERSION;
  const settledBefore = options.settleMs === 0 ? Infinity : dayStart(options.now - options.settleMs);
  let rebuilt = 0;
  for (const day of await daysToCheck(decisions, rollups)) {
    if (day >= settledBefore || day < (options.since ?? -Infinity)) continue;
    const range = { $gte: new Date(day), $lt: new Date(day + DAY_MS) };
    const [count, totals] = rebuildAll ? [0, null] : await Promise.all([decisions.countDocuments({ timestamp: range }), rollups.findOne({ _id: { $eq: dayBucket(day) } })]);
    if (!rebuildAll && count === (totals?.total ?? 0)) continue;
    await rebuildDay(decisions, rollups, day);
    rebuilt += 1;
  }
  if (rebuildAll) await rollups.upsertMany([{ id: ROLLUP_MARKER_ID, update: { $set: { bucket: ROLLUP_MARKER_ID, part: "meta", version: ROLLUP_VERSION } } }]);
  return rebuilt;
}

/** Every day from the first decision's to the last's, and every day with a day bucket. */
async function daysToCheck(decisions: Collection<DecisionDocument>, rollups: Collection<RollupDocument>): Promise<number[]> {
  const [first, last, buckets] = await Promise.all([
    decisions.find({}, { sort: { timestamp: 1, _id: 1 }, limit: 1, projection: { timestamp: 1 } }),
    decisions.find({}, { sort: { timestamp: -1, _id: -1 }, limit: 1, projection: { timestamp: 1 } }),
    rollups.find({ part: "t", bucket: { $regex: /^d:/ } }, { projection: { bucket: 1 } }),
  ]);
  const days = new Set<number>();
  if (first[0] && last[0]) {
    for (let day = dayStart(first[0].timestamp.getTime()); day <= last[0].timestamp.getTime(); day += DAY_MS) days.add(day);
  }
  for (const { bucket } of buckets) days.add(Date.parse(bucket.slice(2)));
  return [...days].filter((day) => !Number.isNaN(day)).sort((a, b) => a - b);
}

/**
 * Replaces a day's rollups (its day bucket and 24 hour buckets) with counts taken from its
 * decisions: the old documents are deleted first, so a crash part way leaves a day total that
 * disagrees, and the day is rebuilt again at the next check.
 */
async function rebuildDay(decisions: Collection<DecisionDocument>, rollups: Collection<RollupDocument>, day: number): Promise<void> {
  const found = await decisions.find({ timestamp: { $gte: new Date(day), $lt: new Date(day + DAY_MS) } }, { projection: COUNTED_PROJECTION });
  const delta = new RollupDelta();
  for (const decision of found as CountedDecision[]) delta.addDecision(decision);
  await rollups.deleteMany({ bucket: { $in: bucketsOfDay(day) } });
  await rollups.upsertMany(delta.documents());
}
