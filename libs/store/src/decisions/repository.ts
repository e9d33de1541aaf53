import { StoredDecisionSchema, type RecentDecision, type StoredDecision, type UsageStats } from "@sd/contracts";
import type { Collection, Pipeline } from "../collection";
import { isDuplicateKeyError } from "../errors";
import {
  healthFiguresPipeline,
  recentDecisionsPipeline,
  toHealthFigures,
  toRecentDecision,
  toUsageStats,
  usageStatsPipeline,
  type HealthFigures,
  type StatsWindow,
} from "./admin-stats";
import { assertPaging, decisionListFilter, NEWEST_FIRST, type DecisionListQuery } from "./list-query";
import { fromDecisionDocument, toDecisionDocument } from "./mapping";
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
  count(): Promise<number>;
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
  /** The admin usage stats of a period (definitions in `admin-stats.ts`), in one aggregation. */
  usageStats(window: StatsWindow): Promise<UsageStats>;
  /** The period's decisions for Recent Activity: newest first, at most 100. */
  recentDecisions(window: StatsWindow): Promise<RecentDecision[]>;
  /** The period's figures system health is judged on, in one aggregation. */
  healthFigures(window: StatsWindow): Promise<HealthFigures>;
}

export class DecisionNotFoundError extends Error {
  constructor(readonly decisionId: string) {
    super(`Decision ${decisionId} not found`);
    this.name = "DecisionNotFoundError";
  }
}

export function createDecisionRepository(decisions: Collection<DecisionDocument>): DecisionRepository {
  return {
    async insertOnce(decision) {
      // The shared contract checks what the decisions schema would, and toDecisionDocument builds what
      // its cast would store, so the hot path skips mongoose's cast and validation (1-2 ms per decision).
      const document = toDecisionDocument(StoredDecisionSchema.parse(decision));
      try {
        await decisions.insertOnePrevalidated(document);
        return true;
      } catch (error) {
        // The id is the unique _id: a concurrent or repeated insert loses here, on both drivers.
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
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

    count() {
      return decisions.countDocuments({});
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
      const result = await decisions.updateOne({ _id: id }, update);
      if (result.matchedCount === 0) throw new DecisionNotFoundError(id);
    },

    async usageStats(window) {
      const [facets] = await decisions.aggregate<Parameters<typeof toUsageStats>[1] & object>(usageStatsPipeline(window));
      return toUsageStats(window, facets);
    },

    async recentDecisions(window) {
      const rows = await decisions.aggregate<Parameters<typeof toRecentDecision>[0]>(recentDecisionsPipeline(window));
      return rows.map(toRecentDecision);
    },

    async healthFigures(window) {
      const [row] = await decisions.aggregate<Parameters<typeof toHealthFigures>[0] & object>(healthFiguresPipeline(window));
      return toHealthFigures(row);
    },
  };
}

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
