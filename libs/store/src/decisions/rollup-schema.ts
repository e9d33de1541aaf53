import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/**
 * The admin statistics' rollups: counters of the decisions of each UTC hour and each UTC day (a
 * bucket), kept up to date as decisions are written, so a statistic reads a bucket per hour or day
 * instead of every decision. Each bucket has one totals document (part "t") and its per-user,
 * per-IP and per-category counts spread over a few shard documents (parts "u", "i", "c"), so an
 * update rewrites a small document (the embedded store journals whole documents).
 */
export type RollupPart = "t" | "u" | "i" | "c" | "meta";

export interface RollupDocument extends BaseDocument {
  /** `h:YYYY-MM-DDTHH` or `d:YYYY-MM-DD` (UTC); "meta" for the format marker. */
  bucket: string;
  part: RollupPart;
  total?: number;
  with_errors?: number;
  with_results?: number;
  authenticated?: number;
  processing_ms?: number;
  /** Decisions per ensemble mode, by encoded mode. */
  modes?: Record<string, number>;
  /** Decisions with an error from each provider, by encoded provider id. */
  provider_errors?: Record<string, number>;
  /**
   * A shard's counts by encoded key (user id, IP or category): `n` decisions; for IPs `a` of them
   * anonymous; for users `e` the greatest email seen. Flat maps of numbers and strings rather than
   * an object per key: a statistic reads tens of thousands of keys, and each object costs a copy.
   */
  n?: Record<string, number>;
  a?: Record<string, number>;
  e?: Record<string, string>;
  /** The marker's rollup format version. */
  version?: number;
}

// Counters have no defaults: an upsert's `$inc` creates them, and a missing one reads as 0.
export const rollupSchema = new Schema(
  {
    _id: { type: String, required: true },
    bucket: { type: String, required: true },
    part: { type: String, required: true, enum: ["t", "u", "i", "c", "meta"] },
    total: Number,
    with_errors: Number,
    with_results: Number,
    authenticated: Number,
    processing_ms: Number,
    // Maps keyed by encoded user text (see `encodeKey`), so Mixed rather than mongoose Maps.
    modes: Schema.Types.Mixed,
    provider_errors: Schema.Types.Mixed,
    n: Schema.Types.Mixed,
    a: Schema.Types.Mixed,
    e: Schema.Types.Mixed,
    version: Number,
  },
  { collection: "decision_rollups", versionKey: false, minimize: false, strict: "throw", id: false },
);

// A statistic reads the shard documents of the buckets it covers.
rollupSchema.index({ bucket: 1 });

export const decisionRollupsCollection = defineCollection<RollupDocument>("decision_rollups", rollupSchema);
