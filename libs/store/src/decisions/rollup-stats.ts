import type { Collection } from "../collection";
import {
  ACTIVE_IPS_LIMIT,
  ACTIVE_USERS_LIMIT,
  boundsOf,
  TOP_CATEGORIES_LIMIT,
  TREND_DAYS,
  type HealthRow,
  type StatsWindow,
  type UsageFacets,
} from "./admin-stats";
import {
  COUNTED_PROJECTION,
  contributionOf,
  DAY_MS,
  dayBucket,
  dayStart,
  forEachEntry,
  HOUR_MS,
  hourBucket,
  hourStart,
  type Contribution,
  type CountedDecision,
} from "./rollup-deltas";
import type { RollupDocument } from "./rollup-schema";
import type { DecisionDocument } from "./schema";

/**
 * The admin statistics from the rollups: a window is cut into whole UTC days and whole UTC hours,
 * read from their buckets, and at most an hour of decisions at each end (at or after `from` to the
 * first whole hour; from the last whole hour to `now`, both ends included), read from the decisions
 * themselves through the timestamp index. The figures are then shaped by the same functions as the
 * full-scan pipelines' results, so every answer is the one those pipelines give.
 */

interface Tally {
  total: number;
  with_errors: number;
  with_results: number;
  authenticated: number;
  processing_ms: number;
  users: Map<string | null, { n: number; e: string | null }>;
  ips: Map<string, { n: number; a: number }>;
  categories: Map<string, number>;
}

/** A range of decision times: from included, to included or not. */
interface Edge {
  from: number;
  to: number;
  toIncluded: boolean;
}

interface Plan {
  /** Starts of the whole hours and whole days the window covers (outside the edges). */
  hours: number[];
  days: number[];
  /** The window's partial hours, read from the decisions. */
  edges: Edge[];
}

/** Cuts `[from, to]` into its partial first hour, whole hours up to a day, whole days, whole hours, and its partial last hour. */
export function planWindow(from: number, to: number): Plan {
  const firstWholeHour = Math.ceil(from / HOUR_MS) * HOUR_MS;
  const lastHour = hourStart(to);
  if (firstWholeHour >= lastHour) return { hours: [], days: [], edges: [{ from, to, toIncluded: true }] };
  const edges: Edge[] = [];
  if (from < firstWholeHour) edges.push({ from, to: firstWholeHour, toIncluded: false });
  edges.push({ from: lastHour, to, toIncluded: true });
  const firstWholeDay = Math.ceil(firstWholeHour / DAY_MS) * DAY_MS;
  const lastDay = dayStart(lastHour);
  if (firstWholeDay >= lastDay) return { hours: steps(firstWholeHour, lastHour, HOUR_MS), days: [], edges };
  return {
    hours: [...steps(firstWholeHour, firstWholeDay, HOUR_MS), ...steps(lastDay, lastHour, HOUR_MS)],
    days: steps(firstWholeDay, lastDay, DAY_MS),
    edges,
  };
}

function windowBuckets(plan: Plan): string[] {
  return [...plan.hours.map(hourBucket), ...plan.days.map(dayBucket)];
}

const inEdge = (time: number, edge: Edge) => time >= edge.from && (edge.toIncluded ? time <= edge.to : time < edge.to);

/** The decisions of the window's edges and of the last hour (at most a few hours of them, by the timestamp index). */
async function edgeDecisions(
  decisions: Collection<DecisionDocument>,
  plan: Plan,
  lastHourFrom: number,
  to: number,
  projection: Record<string, 1> = COUNTED_PROJECTION,
): Promise<CountedDecision[]> {
  const tailFrom = Math.min(hourStart(to), lastHourFrom);
  const head = plan.edges[0];
  const ranges: { from: number; to: number; toIncluded: boolean }[] = [];
  if (head && head.from < tailFrom) {
    if (head.toIncluded || head.to >= tailFrom) ranges.push({ from: head.from, to, toIncluded: true });
    else ranges.push(head, { from: tailFrom, to, toIncluded: true });
  } else ranges.push({ from: tailFrom, to, toIncluded: true });
  const found = await Promise.all(
    ranges.map((range) =>
      decisions.find({ timestamp: { $gte: new Date(range.from), [range.toIncluded ? "$lte" : "$lt"]: new Date(range.to) } }, { projection }),
    ),
  );
  return found.flat();
}

function emptyTally(): Tally {
  return { total: 0, with_errors: 0, with_results: 0, authenticated: 0, processing_ms: 0, users: new Map(), ips: new Map(), categories: new Map() };
}

function addTotals(tally: Tally, doc: RollupDocument): void {
  tally.total += doc.total ?? 0;
  tally.with_errors += doc.with_errors ?? 0;
  tally.with_results += doc.with_results ?? 0;
  tally.authenticated += doc.authenticated ?? 0;
  tally.processing_ms += doc.processing_ms ?? 0;
}

/** A bucket's shard documents, decoded: one row per key. */
interface BucketKeys {
  users: { key: string | null; n: number; e: string | null }[];
  ips: { key: string; n: number; a: number }[];
  categories: { key: string; n: number }[];
}

function decodeBuckets(docs: readonly RollupDocument[]): Map<string, BucketKeys> {
  const buckets = new Map<string, BucketKeys>();
  for (const doc of docs) {
    let keys = buckets.get(doc.bucket);
    if (!keys) buckets.set(doc.bucket, (keys = { users: [], ips: [], categories: [] }));
    const into = keys;
    forEachEntry(doc, (key, n, a, e) => {
      if (doc.part === "u") into.users.push({ key, n, e });
      else if (doc.part === "i" && key !== null) into.ips.push({ key, n, a });
      else if (doc.part === "c" && key !== null) into.categories.push({ key, n });
    });
  }
  return buckets;
}

function addBucketKeys(tally: Tally, keys: BucketKeys): void {
  for (const user of keys.users) addUser(tally, user.key, user.n, user.e);
  for (const ip of keys.ips) addIp(tally, ip.key, ip.n, ip.a);
  for (const category of keys.categories) tally.categories.set(category.key, (tally.categories.get(category.key) ?? 0) + category.n);
}

const EMPTY_BUCKET: BucketKeys = { users: [], ips: [], categories: [] };

/**
 * The decoded shard documents of settled buckets, kept between statistics: a month's statistics
 * read tens of thousands of user and IP keys, and copying and decoding them is most of their cost.
 * A settled bucket's shards change only when this process writes a decision into it (`forget`,
 * from the rollup writer), or when a check rebuilds it (`clear`). With other writers (MongoDB),
 * a bucket is settled once it ended `settleMs` ago, and an entry is read again after `ttlMs`, which
 * bounds how long a rebuild by another process can go unseen.
 */
export class ShardCache {
  readonly #entries = new Map<string, { keys: BucketKeys; loadedAt: number }>();
  readonly #generation = new Map<string, number>();
  #epoch = 0;

  constructor(
    private readonly settleMs: number,
    private readonly ttlMs: number,
    private readonly clock: () => number,
  ) {}

  /** Buckets whose shards were written: cached copies are dropped, and reads already under way do not cache. */
  forget(buckets: Iterable<string>): void {
    for (const bucket of buckets) {
      this.#entries.delete(bucket);
      this.#generation.set(bucket, (this.#generation.get(bucket) ?? 0) + 1);
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#epoch += 1;
  }

  /** The shard keys of each bucket (start ms by bucket id), from the cache or the rollups. */
  async read(rollups: Collection<RollupDocument>, buckets: Map<string, number>): Promise<BucketKeys[]> {
    const now = this.clock();
    const found = new Map<string, BucketKeys>();
    const missing: string[] = [];
    for (const bucket of buckets.keys()) {
      const entry = this.#entries.get(bucket);
      if (entry && entry.loadedAt + this.ttlMs > now) found.set(bucket, entry.keys);
      else missing.push(bucket);
    }
    if (missing.length > 0) {
      const epoch = this.#epoch;
      const generations = missing.map((bucket) => this.#generation.get(bucket) ?? 0);
      const loaded = decodeBuckets(await rollups.find({ bucket: { $in: missing }, part: { $in: ["u", "i", "c"] } }));
      this.#sweep(now);
      missing.forEach((bucket, i) => {
        const keys = loaded.get(bucket) ?? EMPTY_BUCKET;
        found.set(bucket, keys);
        const start = buckets.get(bucket) ?? Infinity;
        const end = start + (bucket.startsWith("d:") ? DAY_MS : HOUR_MS);
        const unchanged = epoch === this.#epoch && (this.#generation.get(bucket) ?? 0) === generations[i];
        if (unchanged && end + this.settleMs <= now) this.#entries.set(bucket, { keys, loadedAt: now });
      });
    }
    return [...found.values()];
  }

  #sweep(now: number): void {
    for (const [bucket, entry] of this.#entries) if (entry.loadedAt + this.ttlMs <= now) this.#entries.delete(bucket);
  }
}

function addDecision(tally: Tally, c: Contribution): void {
  tally.total += 1;
  if (c.hasError) tally.with_errors += 1;
  if (c.withResult) tally.with_results += 1;
  if (c.authenticated) tally.authenticated += 1;
  tally.processing_ms += c.processingMs;
  if (c.user) addUser(tally, c.user.id, 1, c.user.email);
  if (c.ip) addIp(tally, c.ip.value, 1, c.ip.anonymous ? 1 : 0);
  if (c.category !== null) tally.categories.set(c.category, (tally.categories.get(c.category) ?? 0) + 1);
}

function addUser(tally: Tally, id: string | null, n: number, email: string | null): void {
  const user = tally.users.get(id);
  if (!user) tally.users.set(id, { n, e: email });
  else {
    user.n += n;
    if (email !== null && (user.e === null || email > user.e)) user.e = email;
  }
}

function addIp(tally: Tally, ip: string, n: number, anonymous: number): void {
  const entry = tally.ips.get(ip);
  if (!entry) tally.ips.set(ip, { n, a: anonymous });
  else {
    entry.n += n;
    entry.a += anonymous;
  }
}

/** The `$sort: { count: -1, _id: 1 }` order of the pipelines (mingo's: null first, then strings by code unit), top `limit`. */
function top<K extends string | null>(counts: Iterable<[K, number]>, limit: number): [K, number][] {
  const rows = [...counts].filter(([, count]) => count > 0);
  rows.sort(([a, countA], [b, countB]) => countB - countA || (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? -1 : 1));
  return rows.slice(0, limit);
}

async function byIds(rollups: Collection<RollupDocument>, ids: string[]): Promise<Map<string, RollupDocument>> {
  const docs = ids.length === 0 ? [] : await rollups.find({ _id: { $in: [...new Set(ids)] } });
  return new Map(docs.map((doc) => [doc._id, doc]));
}

/** The usage-stats pipeline's result document, from the rollups and the window's edge decisions. */
export async function usageFacets(
  decisions: Collection<DecisionDocument>,
  rollups: Collection<RollupDocument>,
  cache: ShardCache,
  window: StatsWindow,
): Promise<UsageFacets> {
  const { from, to, hourAgo, trendFrom } = boundsOf(window);
  const [fromMs, toMs, trendFromMs] = [from.getTime(), to.getTime(), trendFrom.getTime()];
  const lastHourFrom = Math.max(hourAgo.getTime(), fromMs);
  const plan = planWindow(fromMs, toMs);
  const today = dayStart(toMs);
  const lastHour = hourStart(toMs);
  const trendDays = steps(trendFromMs, today, DAY_MS);
  const todayHours = steps(today, lastHour, HOUR_MS);
  const buckets = windowBuckets(plan);

  const [totals, shards, edge] = await Promise.all([
    byIds(rollups, [...buckets, ...trendDays.map(dayBucket), ...todayHours.map(hourBucket)]),
    cache.read(rollups, new Map([...plan.hours.map((start) => [hourBucket(start), start] as const), ...plan.days.map((start) => [dayBucket(start), start] as const)])),
    edgeDecisions(decisions, plan, lastHourFrom, toMs),
  ]);

  const tally = emptyTally();
  for (const bucket of buckets) {
    const doc = totals.get(bucket);
    if (doc) addTotals(tally, doc);
  }
  for (const keys of shards) addBucketKeys(tally, keys);
  let lastHourCount = 0;
  let todayCount = 0;
  for (const todayHour of todayHours) todayCount += totals.get(hourBucket(todayHour))?.total ?? 0;
  for (const decision of edge) {
    const time = decision.timestamp.getTime();
    if (plan.edges.some((range) => inEdge(time, range))) addDecision(tally, contributionOf(decision));
    if (time >= lastHourFrom && time <= toMs) lastHourCount += 1;
    if (time >= Math.max(lastHour, today) && time <= toMs) todayCount += 1;
  }

  const users = [...tally.users].filter(([, user]) => user.n > 0);
  const userEmails = new Map(users.map(([id, user]) => [id, user.e]));
  return {
    summary: [
      {
        total: tally.total,
        last_hour: lastHourCount,
        with_errors: tally.with_errors,
        with_results: tally.with_results,
        authenticated: tally.authenticated,
        users: users.map(([id]) => id).filter((id) => id !== null),
        ips: [...tally.ips].filter(([, ip]) => ip.n > 0).map(([ip]) => ip),
        processing_ms: tally.processing_ms,
      },
    ],
    top_categories: top(tally.categories, TOP_CATEGORIES_LIMIT).map(([category, count]) => ({ _id: category, count })),
    daily_usage: [
      ...trendDays.map((day) => ({ _id: new Date(day).toISOString().slice(0, 10), count: totals.get(dayBucket(day))?.total ?? 0 })),
      { _id: new Date(today).toISOString().slice(0, 10), count: todayCount },
    ].slice(-TREND_DAYS),
    active_users: top(
      users.map(([id, user]) => [id, user.n] as [string | null, number]),
      ACTIVE_USERS_LIMIT,
    ).map(([id, count]) => ({ _id: id, count, email: userEmails.get(id) ?? null })),
    active_ips: top(
      [...tally.ips].map(([ip, counts]) => [ip, counts.a] as [string, number]),
      ACTIVE_IPS_LIMIT,
    ).map(([ip, count]) => ({ _id: ip, count })),
  };
}

/** What the health figures read of a decision (a contribution's other fields are then absent, and unused). */
const HEALTH_PROJECTION = { timestamp: 1, error_details: 1, processing_time_ms: 1 } as const;

/** The health-figures pipeline's result row, from the rollups and the window's edge decisions. */
export async function healthRow(decisions: Collection<DecisionDocument>, rollups: Collection<RollupDocument>, window: StatsWindow): Promise<HealthRow> {
  const { from, to, hourAgo } = boundsOf(window);
  const [fromMs, toMs] = [from.getTime(), to.getTime()];
  const lastHourFrom = Math.max(hourAgo.getTime(), fromMs);
  const plan = planWindow(fromMs, toMs);
  const buckets = windowBuckets(plan);
  const [totals, edge] = await Promise.all([byIds(rollups, buckets), edgeDecisions(decisions, plan, lastHourFrom, toMs, HEALTH_PROJECTION)]);
  const tally = emptyTally();
  for (const doc of totals.values()) addTotals(tally, doc);
  let lastHourCount = 0;
  for (const decision of edge) {
    const time = decision.timestamp.getTime();
    if (plan.edges.some((range) => inEdge(time, range))) {
      const c = contributionOf(decision);
      tally.total += 1;
      if (c.hasError) tally.with_errors += 1;
      tally.processing_ms += c.processingMs;
    }
    if (time >= lastHourFrom && time <= toMs) lastHourCount += 1;
  }
  return { total: tally.total, last_hour: lastHourCount, with_errors: tally.with_errors, processing_ms: tally.processing_ms };
}

/** Starts from `from` (included) to `to` (excluded), `step` apart. */
function steps(from: number, to: number, step: number): number[] {
  const starts: number[] = [];
  for (let at = from; at < to; at += step) starts.push(at);
  return starts;
}
