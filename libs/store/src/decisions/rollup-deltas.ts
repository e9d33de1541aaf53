import type { IdUpdate } from "../collection";
import type { RollupDocument, RollupPart } from "./rollup-schema";
import type { DecisionDocument } from "./schema";

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The decision fields the admin statistics count. */
export type CountedDecision = Pick<
  DecisionDocument,
  "timestamp" | "final_decision" | "error_details" | "processing_time_ms" | "ensemble_mode" | "is_authenticated" | "user_id" | "user_ip" | "user_email"
>;

export const COUNTED_PROJECTION = {
  timestamp: 1,
  final_decision: 1,
  error_details: 1,
  processing_time_ms: 1,
  ensemble_mode: 1,
  is_authenticated: 1,
  user_id: 1,
  user_ip: 1,
  user_email: 1,
} as const;

/** Shard documents per bucket: users are the most numerous keys, categories the fewest. */
const SHARDS: Record<"u" | "i" | "c", number> = { u: 16, i: 8, c: 4 };

export const hourStart = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
export const dayStart = (ms: number) => Math.floor(ms / DAY_MS) * DAY_MS;
export const hourBucket = (start: number) => `h:${new Date(start).toISOString().slice(0, 13)}`;
export const dayBucket = (start: number) => `d:${new Date(start).toISOString().slice(0, 10)}`;
/** The hour and day buckets of a day: the day's last, as it is written last (see `RollupDelta.writes`). */
export const bucketsOfDay = (day: number) => [...Array.from({ length: 24 }, (_, n) => hourBucket(day + n * HOUR_MS)), dayBucket(day)];

/**
 * Map keys are user text (user ids, IPs, categories) but become MongoDB field names, which cannot
 * hold "." (a path) or start with "$", nor hold "\0". Every key gets a "k" prefix (so "" and
 * "__proto__" are safe names too) and "%", ".", "$" and "\0" are percent-encoded; null is "n".
 */
export function encodeKey(value: string | null): string {
  if (value === null) return "n";
  return `k${value.replace(/[%.$\0]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`)}`;
}

export function decodeKey(key: string): string | null {
  if (key === "n") return null;
  if (!key.includes("%")) return key.slice(1);
  return key.slice(1).replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

/** What one decision adds to its buckets; the statistics read decisions at a window's edges the same way. */
export interface Contribution {
  hasError: boolean;
  withResult: boolean;
  authenticated: boolean;
  processingMs: number;
  mode: string | null;
  providerErrors: string[];
  /** Present for an authenticated decision: its user id (null when none) and email. */
  user: { id: string | null; email: string | null } | null;
  /** Present when the decision has an IP: whether it was anonymous. */
  ip: { value: string; anonymous: boolean } | null;
  category: string | null;
}

/**
 * The definitions of today's pipelines (see `admin-stats.ts`): an error is a non-empty
 * `error_details`; a result is a final decision without errors; authenticated is `true` exactly;
 * only anonymous (`false`) decisions count towards the active IPs; `$sum` ignores non-numbers.
 */
export function contributionOf(decision: CountedDecision): Contribution {
  const errors = decision.error_details ?? {};
  const providerErrors = Object.keys(errors);
  const hasError = providerErrors.length > 0;
  const finalDecision = decision.final_decision ?? null;
  const authenticated = decision.is_authenticated === true;
  const ip = decision.user_ip ?? null;
  return {
    hasError,
    withResult: finalDecision !== null && !hasError,
    authenticated,
    processingMs: typeof decision.processing_time_ms === "number" ? decision.processing_time_ms : 0,
    mode: typeof decision.ensemble_mode === "string" ? decision.ensemble_mode : null,
    providerErrors,
    user: authenticated ? { id: decision.user_id ?? null, email: typeof decision.user_email === "string" ? decision.user_email : null } : null,
    ip: ip === null ? null : { value: ip, anonymous: decision.is_authenticated === false },
    category: finalDecision,
  };
}

interface DocDelta {
  bucket: string;
  part: Exclude<RollupPart, "meta">;
  /** Dotted path -> amount. */
  inc: Map<string, number>;
  /** Dotted path -> greatest string. */
  max: Map<string, string>;
}

/**
 * Changes to rollup documents, merged: what a decision (or many) adds to its hour and day buckets.
 * Merging is exact (sums and maxima), so concurrent inserts can be written as one.
 */
export class RollupDelta {
  readonly #docs = new Map<string, DocDelta>();

  get size(): number {
    return this.#docs.size;
  }

  /** The buckets this delta changes. */
  buckets(): Set<string> {
    return new Set([...this.#docs.values()].map((doc) => doc.bucket));
  }

  /** Adds (sign 1) or takes away (sign -1) a decision's counts in its hour and day buckets. */
  addDecision(decision: CountedDecision, sign: 1 | -1 = 1): void {
    const time = decision.timestamp.getTime();
    const contribution = contributionOf(decision);
    for (const bucket of [hourBucket(hourStart(time)), dayBucket(dayStart(time))]) this.#addTo(bucket, contribution, sign);
  }

  /** Adds another delta's changes. */
  merge(other: RollupDelta): void {
    for (const [id, doc] of other.#docs) {
      const mine = this.#doc(id, doc.bucket, doc.part);
      for (const [path, amount] of doc.inc) bump(mine.inc, path, amount);
      for (const [path, value] of doc.max) raise(mine.max, path, value);
    }
  }

  /** `$inc`/`$max` upserts; each bucket's totals come after its shards, and day totals last of all. */
  writes(): IdUpdate[] {
    const writes: IdUpdate[] = [];
    for (const [id, doc] of this.#ordered()) {
      const inc = Object.fromEntries([...doc.inc].filter(([, amount]) => amount !== 0));
      const max = Object.fromEntries(doc.max);
      if (Object.keys(inc).length === 0 && Object.keys(max).length === 0) continue;
      const update: Record<string, unknown> = { $setOnInsert: { bucket: doc.bucket, part: doc.part } };
      if (Object.keys(inc).length > 0) update.$inc = inc;
      if (Object.keys(max).length > 0) update.$max = max;
      writes.push({ id, update });
    }
    return writes;
  }

  /** Whole documents (this delta taken as the counts from zero), as `$set` upserts in `writes` order. */
  documents(): IdUpdate[] {
    return [...this.#ordered()].map(([id, doc]) => {
      const set: Record<string, unknown> = { bucket: doc.bucket, part: doc.part };
      if (doc.part === "t") Object.assign(set, { total: 0, with_errors: 0, with_results: 0, authenticated: 0, processing_ms: 0, modes: {}, provider_errors: {} });
      else set.n = {};
      for (const [path, amount] of doc.inc) assign(set, path, amount);
      for (const [path, value] of doc.max) assign(set, path, value);
      return { id, update: { $set: set } };
    });
  }

  *#ordered(): Generator<[string, DocDelta]> {
    const totals: [string, DocDelta][] = [];
    const dayTotals: [string, DocDelta][] = [];
    for (const entry of this.#docs) {
      if (entry[1].part !== "t") yield entry;
      else (entry[1].bucket.startsWith("d:") ? dayTotals : totals).push(entry);
    }
    yield* totals;
    yield* dayTotals;
  }

  #addTo(bucket: string, c: Contribution, sign: 1 | -1): void {
    const totals = this.#doc(bucket, bucket, "t").inc;
    bump(totals, "total", sign);
    bump(totals, "with_errors", c.hasError ? sign : 0);
    bump(totals, "with_results", c.withResult ? sign : 0);
    bump(totals, "authenticated", c.authenticated ? sign : 0);
    bump(totals, "processing_ms", sign * c.processingMs);
    if (c.mode !== null) bump(totals, `modes.${encodeKey(c.mode)}`, sign);
    for (const provider of c.providerErrors) bump(totals, `provider_errors.${encodeKey(provider)}`, sign);
    if (c.user) {
      const key = encodeKey(c.user.id);
      const doc = this.#shard(bucket, "u", key);
      bump(doc.inc, `n.${key}`, sign);
      // A maximum cannot be taken back; only late votes take decisions away, and they keep the email.
      if (c.user.email !== null && sign > 0) raise(doc.max, `e.${key}`, c.user.email);
    }
    if (c.ip) {
      const key = encodeKey(c.ip.value);
      const doc = this.#shard(bucket, "i", key);
      bump(doc.inc, `n.${key}`, sign);
      if (c.ip.anonymous) bump(doc.inc, `a.${key}`, sign);
    }
    if (c.category !== null) {
      const key = encodeKey(c.category);
      bump(this.#shard(bucket, "c", key).inc, `n.${key}`, sign);
    }
  }

  #shard(bucket: string, part: "u" | "i" | "c", key: string): DocDelta {
    const shard = String(hash(key) % SHARDS[part]).padStart(2, "0");
    return this.#doc(`${bucket}/${part}${shard}`, bucket, part);
  }

  #doc(id: string, bucket: string, part: DocDelta["part"]): DocDelta {
    let doc = this.#docs.get(id);
    if (!doc) this.#docs.set(id, (doc = { bucket, part, inc: new Map(), max: new Map() }));
    return doc;
  }
}

/** Calls `visit` with each key of a shard document and its counts (a missing count is 0, a missing email null). */
export function forEachEntry(doc: RollupDocument, visit: (key: string | null, n: number, a: number, e: string | null) => void): void {
  const { n = {}, a = {}, e = {} } = doc;
  for (const key in n) visit(decodeKey(key), n[key] ?? 0, a[key] ?? 0, e[key] ?? null);
}

function bump(map: Map<string, number>, path: string, amount: number): void {
  if (amount === 0 && map.has(path)) return;
  map.set(path, (map.get(path) ?? 0) + amount);
}

function raise(map: Map<string, string>, path: string, value: string): void {
  const current = map.get(path);
  // The order mingo's $max gives strings (UTF-16 code units), as today's `$max` accumulator did on the embedded store.
  if (current === undefined || value > current) map.set(path, value);
}

function assign(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split(".");
  let at = target;
  for (const part of parts.slice(0, -1)) {
    const next = at[part];
    if (typeof next === "object" && next !== null) at = next as Record<string, unknown>;
    else at = at[part] = {};
  }
  at[parts[parts.length - 1] as string] = value;
}

/** FNV-1a: a stable spread of keys over shards. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
