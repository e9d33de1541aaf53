import type { RecentDecision, StoredDecision, UsageStats } from "@sd/contracts";
import { aggregate } from "mingo";
import type { Pipeline } from "../collection";
import {
  ACTIVE_IPS_LIMIT,
  ACTIVE_USERS_LIMIT,
  boundsOf,
  RECENT_DECISIONS_LIMIT,
  TOP_CATEGORIES_LIMIT,
  toHealthFigures,
  toRecentDecision,
  toUsageStats,
  type HealthFigures,
  type HealthRow,
  type RecentRow,
  type StatsWindow,
  type UsageFacets,
} from "../decisions/admin-stats";
import { toDecisionDocument } from "../decisions/mapping";
import type { DecisionDocument } from "../decisions/schema";
import { MINGO_OPTIONS } from "../drivers/embedded/mingo-options";

/**
 * The admin statistics computed the way they were before the rollups: one aggregation pipeline
 * over every decision, run by mingo. Tests and the admin bench check the store's answers against
 * these, which define what every answer must be.
 */
export class AdminStatsReference {
  readonly #documents: DecisionDocument[];

  /**
   * Takes decisions as stored (with `toDecisionDocument`'s mapping), in the order they were
   * written, keeping only the fields the pipelines read, so a million of them fit in memory.
   */
  constructor(decisions: Iterable<StoredDecision>) {
    this.#documents = Array.from(decisions, (decision) => readFields(toDecisionDocument(decision)));
  }

  get size(): number {
    return this.#documents.length;
  }

  usageStats(window: StatsWindow): UsageStats {
    return toUsageStats(window, this.#run<UsageFacets>(usageStatsPipeline(window))[0]);
  }

  healthFigures(window: StatsWindow): HealthFigures {
    return toHealthFigures(this.#run<HealthRow>(healthFiguresPipeline(window))[0]);
  }

  recentDecisions(window: StatsWindow): RecentDecision[] {
    return this.#run<RecentRow>(recentDecisionsPipeline(window)).map(toRecentDecision);
  }

  #run<T>(pipeline: Pipeline): T[] {
    return structuredClone(aggregate(this.#documents, pipeline, MINGO_OPTIONS)) as T[];
  }
}

/** The fields the pipelines below read (any other field cannot change their answers). */
const READ_FIELDS = [
  "_id",
  "question",
  "timestamp",
  "categories",
  "final_decision",
  "error_details",
  "processing_time_ms",
  "ensemble_mode",
  "is_authenticated",
  "user_id",
  "user_ip",
  "user_email",
] as const;

function readFields(document: DecisionDocument): DecisionDocument {
  const kept: Record<string, unknown> = {};
  for (const field of READ_FIELDS) if (Object.hasOwn(document, field)) kept[field] = document[field];
  return kept as unknown as DecisionDocument;
}

/** True when the decision has any model error (an empty or missing `error_details` is none). */
const HAS_ERROR = { $gt: [{ $size: { $objectToArray: { $ifNull: ["$error_details", {}] } } }, 0] };
const countIf = (condition: unknown) => ({ $sum: { $cond: [condition, 1, 0] } });

/**
 * Usage stats in one round trip: a leading `$match` on the timestamp range (which an index on
 * `timestamp` serves on MongoDB), then one `$facet` per figure group. The range covers the period
 * and the trend's 7 days; each facet keeps the part it counts.
 */
function usageStatsPipeline(window: StatsWindow): Pipeline {
  const { from, to, hourAgo, trendFrom } = boundsOf(window);
  const earliest = from < trendFrom ? from : trendFrom;
  const inPeriod = { $match: { timestamp: { $gte: from, $lte: to } } };
  return [
    { $match: { timestamp: { $gte: earliest, $lte: to } } },
    {
      $facet: {
        summary: [
          inPeriod,
          {
            $group: {
              _id: null,
              total: { $sum: 1 },
              last_hour: countIf({ $gte: ["$timestamp", hourAgo] }),
              with_errors: countIf(HAS_ERROR),
              with_results: countIf({ $and: [{ $ne: [{ $ifNull: ["$final_decision", null] }, null] }, { $not: [HAS_ERROR] }] }),
              authenticated: countIf({ $eq: ["$is_authenticated", true] }),
              users: { $addToSet: { $cond: [{ $eq: ["$is_authenticated", true] }, { $ifNull: ["$user_id", null] }, null] } },
              ips: { $addToSet: { $ifNull: ["$user_ip", null] } },
              processing_ms: { $sum: { $ifNull: ["$processing_time_ms", 0] } },
            },
          },
        ],
        top_categories: [
          inPeriod,
          { $match: { final_decision: { $ne: null } } },
          { $group: { _id: "$final_decision", count: { $sum: 1 } } },
          { $sort: { count: -1, _id: 1 } },
          { $limit: TOP_CATEGORIES_LIMIT },
        ],
        daily_usage: [
          { $match: { timestamp: { $gte: trendFrom } } },
          { $group: { _id: { $dateToString: { format: "%Y-%m-%d", date: "$timestamp" } }, count: { $sum: 1 } } },
        ],
        active_users: [
          inPeriod,
          { $match: { is_authenticated: true } },
          { $group: { _id: "$user_id", count: { $sum: 1 }, email: { $max: "$user_email" } } },
          { $sort: { count: -1, _id: 1 } },
          { $limit: ACTIVE_USERS_LIMIT },
        ],
        active_ips: [
          inPeriod,
          { $match: { is_authenticated: false, user_ip: { $ne: null } } },
          { $group: { _id: "$user_ip", count: { $sum: 1 } } },
          { $sort: { count: -1, _id: 1 } },
          { $limit: ACTIVE_IPS_LIMIT },
        ],
      },
    },
  ];
}

/** Recent Activity: the period's decisions, newest first (`_id` breaks ties), at most 100, as listed. */
function recentDecisionsPipeline(window: StatsWindow): Pipeline {
  const { from, to } = boundsOf(window);
  return [
    { $match: { timestamp: { $gte: from, $lte: to } } },
    { $sort: { timestamp: -1, _id: -1 } },
    { $limit: RECENT_DECISIONS_LIMIT },
    {
      $project: {
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
      },
    },
  ];
}

/** The figures system health needs, in one `$group` over the period. */
function healthFiguresPipeline(window: StatsWindow): Pipeline {
  const { from, to, hourAgo } = boundsOf(window);
  return [
    { $match: { timestamp: { $gte: from, $lte: to } } },
    {
      $group: {
        _id: null,
        total: { $sum: 1 },
        last_hour: countIf({ $gte: ["$timestamp", hourAgo] }),
        with_errors: countIf(HAS_ERROR),
        processing_ms: { $sum: { $ifNull: ["$processing_time_ms", 0] } },
      },
    },
  ];
}
