import { StoredDecisionSchema, type RecentDecision, type StoredDecision, type UsageStats } from "@sd/contracts";
import type { Collection, Pipeline } from "../collection";
import { isDuplicateKeyError } from "../errors";
import { boundsOf, RECENT_DECISIONS_LIMIT, toHealthFigures, toRecentDecision, toUsageStats, type HealthFigures, type RecentRow, type StatsWindow } from "./admin-stats";
import { assertPaging, decisionListFilter, NEWEST_FIRST, type DecisionListQuery } from "./list-query";
import { fromDecisionDocument, toDecisionDocument } from "./mapping";
import { dayStart, RollupDelta } from "./rollup-deltas";
import type { RollupDocument } from "./rollup-schema";
import { healthRow, ShardCache, usageFacets } from "./rollup-stats";
import { repairRollups, RollupWriter } from "./rollup-upkeep";
import type { DecisionDocument } from "./schema";

export interface LateVoteFields {
  response: string | null;
  raw: string | null;
  confidence: number | null;
  model_version: string;
  error: string | null;
}

/** One page of a user's history and how many of their decisions match the filters in all. */
export interface DecisionPage {
  decisions: StoredDecision[];
  total: number;
}

export interface DecisionRepository {
  /**
   * Writes a finished decision once; a second call with the same id changes nothing and returns
   * false. Rejects (a ZodError) a decision `StoredDecisionSchema` refuses, storing nothing.
   */
  insertOnce(decision: StoredDecision): Promise<boolean>;
  findById(id: string): Promise<StoredDecision | null>;
  /**
   * The decision if it belongs to `userId`; null for an unknown id and for another user's decision
   * alike, so a caller cannot tell the two apart.
   */
  findOwned(id: string, userId: string): Promise<StoredDecision | null>;
  /** Newest first; see `DecisionListQuery` for the filters. */
  list(query: DecisionListQuery): Promise<StoredDecision[]>;
  /**
   * One user's decisions matching the filters, newest first, `limit` from `offset`, with the total
   * that match (for "Showing N decisions" and paging). Only ever that user's decisions.
   */
  page(query: DecisionListQuery & { userId: string }): Promise<DecisionPage>;
  /**
   * Every one of a user's decisions matching the filters (`limit` and `offset` are not used), newest
   * first, read from the store's cursor as the caller consumes them: an export of any size in
   * constant memory. Only ever that user's decisions.
   */
  stream(query: Omit<DecisionListQuery, "limit" | "offset"> & { userId: string }): AsyncIterable<StoredDecision>;
  count(): Promise<number>;
  /** The user's re-runs of a decision (those whose `rerun_of` names it), newest first, at most `limit`; none of anyone else's. */
  rerunsOf(decisionId: string, userId: string, limit: number): Promise<StoredDecision[]>;
  /**
   * What each of a user's API keys has cost: per key id, the sum of the `cost_usd` of the user's
   * decisions made with it (US dollars). A key with no decision is absent (it cost 0). Derived from
   * the decisions, each written once, so it is exact, survives any crash and is never counted twice.
   */
  costByApiKey(userId: string): Promise<Map<string, number>>;
  /**
   * Adds image asset ids to a decision's `images` (each once; existing ones keep their place).
   * Rejects with `DecisionNotFoundError` when no decision has that id.
   */
  addImages(decisionId: string, assetIds: string[]): Promise<void>;
  /** Removes image asset ids from a decision's `images`; an unknown decision or id is no error. */
  removeImages(decisionId: string, assetIds: string[]): Promise<void>;
  /**
   * Merges late votes into a stored decision (used later for early finalisation): the model's
   * response, raw output, confidence and version are set; its error is set, or cleared when null.
   * Rejects with `DecisionNotFoundError` when no decision has that id.
   */
  applyLateVote(id: string, provider: string, fields: LateVoteFields): Promise<void>;
  /**
   * The admin usage stats of a period (definitions in `admin-stats.ts`), from the rollups: the
   * buckets of the period's whole hours and days plus the decisions of its partial first and last hour.
   */
  usageStats(window: StatsWindow): Promise<UsageStats>;
  /** The period's decisions for Recent Activity: newest first, at most 100 (a limited read of the timestamp index). */
  recentDecisions(window: StatsWindow): Promise<RecentDecision[]>;
  /** The period's figures system health is judged on, from the rollups as `usageStats`. */
  healthFigures(window: StatsWindow): Promise<HealthFigures>;
  /** Resolves once the rollup changes of every write so far are written (before closing the store). */
  flushed(): Promise<void>;
}

export interface DecisionRepositoryOptions {
  /**
   * How long after a UTC day ends writes to it may still be in flight from another process (a
   * decision is written when it finishes, stamped when it was asked); days are checked against
   * their rollups only once that long has passed. 0 (the default) when this process is the
   * store's only writer: every day is checked at open.
   */
  settleMs?: number;
  /** The clock the settling is judged by (tests set it). */
  clock?: () => number;
}

/** How long a statistic may reuse a settled bucket's user, IP and category counts before reading them again. */
const SHARD_CACHE_TTL_MS = 10 * 60_000;

/** How long another process may still be writing decisions of a day that has ended (a decision's deadline, with room to spare). */
export const SHARED_STORE_SETTLE_MS = 60 * 60_000;

/**
 * A decision repository whose rollups have been checked (and rebuilt where they disagree with the
 * decisions, or entirely when none of this layout exist): what a store opens.
 */
export async function openDecisionRepository(
  decisions: Collection<DecisionDocument>,
  rollups: Collection<RollupDocument>,
  options: DecisionRepositoryOptions = {},
): Promise<DecisionRepository> {
  const clock = options.clock ?? Date.now;
  await repairRollups(decisions, rollups, { now: clock(), settleMs: options.settleMs ?? 0 });
  return createDecisionRepository(decisions, rollups, options);
}

export class DecisionNotFoundError extends Error {
  constructor(readonly decisionId: string) {
    super(`Decision ${decisionId} not found`);
    this.name = "DecisionNotFoundError";
  }
}

/**
 * A decision repository on its collections, with no check of the rollups (see `openDecisionRepository`).
 * Every write that changes what the statistics count (an insert, a late vote) then changes the
 * rollups, without waiting for that (see `RollupWriter`): the statistics read in this process
 * write pending changes first, so they count every write acknowledged before them. A rollup write that fails (or is cut off by a
 * crash) leaves its day's total short, and the next check rebuilds the day (see `repairRollups`).
 */
export function createDecisionRepository(
  decisions: Collection<DecisionDocument>,
  rollups: Collection<RollupDocument>,
  options: DecisionRepositoryOptions = {},
): DecisionRepository {
  const settleMs = options.settleMs ?? 0;
  const clock = options.clock ?? Date.now;
  const cache = new ShardCache(settleMs, SHARD_CACHE_TTL_MS, clock);
  const writer = new RollupWriter(rollups, (buckets) => cache.forget(buckets));
  // Days before this were checked at open; with other writers, later days are checked as they settle.
  let checkedUntil = settleMs === 0 ? Infinity : dayStart(clock() - settleMs);
  let checking: Promise<void> | null = null;
  const checkSettledDays = async () => {
    while (checking) await checking;
    const horizon = dayStart(clock() - settleMs);
    if (horizon <= checkedUntil) return;
    checking = repairRollups(decisions, rollups, { now: clock(), settleMs, since: checkedUntil }).then(
      (rebuilt) => {
        checkedUntil = horizon;
        if (rebuilt > 0) cache.clear();
      },
      () => undefined,
    );
    try {
      await checking;
    } finally {
      checking = null;
    }
  };
  return {
    flushed: () => writer.flushed(),

    async insertOnce(decision) {
      // The shared contract checks what the decisions schema would, and toDecisionDocument builds what
      // its cast would store, so the hot path skips mongoose's cast and validation (1-2 ms per decision).
      const document = toDecisionDocument(StoredDecisionSchema.parse(decision));
      try {
        await decisions.insertOnePrevalidated(document);
      } catch (error) {
        // The id is the unique _id: a concurrent or repeated insert loses here, on both drivers.
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
      // After the decision: a crash in between leaves a day whose rollup total is short, which the next check rebuilds.
      const delta = new RollupDelta();
      delta.addDecision(document);
      void writer.write(delta);
      return true;
    },

    async findById(id) {
      const doc = await decisions.findOne({ _id: { $eq: id } });
      return doc ? fromDecisionDocument(doc) : null;
    },

    async findOwned(id, userId) {
      assertUserId(userId);
      // $eq compares literally, so no id can act as a query operator.
      const doc = await decisions.findOne({ _id: { $eq: id }, user_id: { $eq: userId } });
      return doc ? fromDecisionDocument(doc) : null;
    },

    async list(query) {
      assertPaging(query);
      if (query.limit === 0) return []; // MongoDB reads limit 0 as "no limit".
      const docs = await decisions.find(decisionListFilter(query), {
        sort: NEWEST_FIRST,
        skip: query.offset,
        limit: query.limit,
      });
      return docs.map(fromDecisionDocument);
    },

    async page(query) {
      assertPaging(query);
      assertUserId(query.userId);
      const filter = decisionListFilter(query);
      const [docs, total] = await Promise.all([
        // MongoDB reads limit 0 as "no limit"; a page of 0 still answers the total.
        query.limit === 0 ? Promise.resolve([]) : decisions.find(filter, { sort: NEWEST_FIRST, skip: query.offset, limit: query.limit }),
        decisions.countDocuments(filter),
      ]);
      return { decisions: docs.map(fromDecisionDocument), total };
    },

    async *stream(query) {
      assertUserId(query.userId);
      const filter = decisionListFilter({ ...query, limit: 0, offset: 0 });
      for await (const doc of decisions.stream(filter, { sort: NEWEST_FIRST })) yield fromDecisionDocument(doc);
    },

    count() {
      return decisions.countDocuments({});
    },

    async rerunsOf(decisionId, userId, limit) {
      assertUserId(userId);
      if (limit <= 0) return []; // MongoDB reads limit 0 as "no limit".
      const docs = await decisions.find({ rerun_of: { $eq: decisionId }, user_id: { $eq: userId } }, { sort: NEWEST_FIRST, limit });
      return docs.map(fromDecisionDocument);
    },

    async costByApiKey(userId) {
      assertUserId(userId);
      const totals = await decisions.aggregate<{ _id: string; cost_usd: number }>(costByApiKeyPipeline(userId));
      return new Map(totals.map((total) => [total._id, total.cost_usd]));
    },

    async addImages(decisionId, assetIds) {
      const result = await decisions.updateOne({ _id: { $eq: decisionId } }, { $addToSet: { images: { $each: [...assetIds] } } });
      if (result.matchedCount === 0) throw new DecisionNotFoundError(decisionId);
    },

    async removeImages(decisionId, assetIds) {
      if (assetIds.length === 0) return;
      await decisions.updateOne({ _id: { $eq: decisionId } }, { $pull: { images: { $in: [...assetIds] } } });
    },

    async applyLateVote(id, provider, fields) {
      assertProviderKey(provider);
      const set: Record<string, unknown> = {
        [`individual_responses.${provider}`]: fields.response,
        [`raw_responses.${provider}`]: fields.raw,
        [`confidence_scores.${provider}`]: fields.confidence,
        [`model_versions.${provider}`]: fields.model_version,
      };
      const update: Record<string, unknown> = { $set: set };
      if (fields.error === null) update.$unset = { [`error_details.${provider}`]: "" };
      else set[`error_details.${provider}`] = fields.error;
      // The state the update started from, atomically: concurrent late votes each count their own change once.
      const before = await decisions.findOneAndUpdate({ _id: id }, update);
      if (before === null) throw new DecisionNotFoundError(id);
      const errors = { ...before.error_details };
      if (fields.error === null) delete errors[provider];
      else errors[provider] = fields.error;
      const delta = new RollupDelta();
      delta.addDecision(before, -1);
      delta.addDecision({ ...before, error_details: errors });
      void writer.write(delta);
    },

    async usageStats(window) {
      // This process's pending changes first: a check must not count a decision whose change is still to come.
      await writer.flushed();
      await checkSettledDays();
      return toUsageStats(window, await usageFacets(decisions, rollups, cache, window));
    },

    async recentDecisions(window) {
      const { from, to } = boundsOf(window);
      const rows = await decisions.find(
        { timestamp: { $gte: from, $lte: to } },
        { sort: { timestamp: -1, _id: -1 }, limit: RECENT_DECISIONS_LIMIT, projection: RECENT_PROJECTION },
      );
      return (rows as unknown as RecentRow[]).map(toRecentDecision);
    },

    async healthFigures(window) {
      // This process's pending changes first: a check must not count a decision whose change is still to come.
      await writer.flushed();
      await checkSettledDays();
      return toHealthFigures(await healthRow(decisions, rollups, window));
    },
  };
}

const RECENT_PROJECTION = {
  _id: 1,
  question: 1,
  timestamp: 1,
  user_email: 1,
  user_ip: 1,
  ensemble_mode: 1,
  processing_time_ms: 1,
  categories: 1,
  final_decision: 1,
  error_details: 1,
} as const;

/**
 * One pipeline for both drivers. The leading `$match` pins `user_id`, which leads the history
 * index: MongoDB reads only that user's decisions, and so does the embedded driver (its lookup
 * table on `user_id`). `$eq` compares literally, so no user id can act as a query operator.
 */
function costByApiKeyPipeline(userId: string): Pipeline {
  return [
    { $match: { user_id: { $eq: userId }, api_key_id: { $ne: null } } },
    { $group: { _id: "$api_key_id", cost_usd: { $sum: "$cost_usd" } } },
  ];
}

/** A history is always one user's: an empty or missing user id must never widen the query. */
function assertUserId(userId: unknown): asserts userId is string {
  if (typeof userId !== "string" || userId === "") throw new RangeError("A user id is required to read a user's decisions");
}

/** Provider ids become field names inside the per-model maps, so they must be safe ones. */
function assertProviderKey(provider: string): void {
  if (provider === "" || provider.includes(".") || provider.startsWith("$") || provider.includes("\0")) {
    throw new RangeError(`Invalid provider id for a stored field name: ${JSON.stringify(provider)}`);
  }
}
