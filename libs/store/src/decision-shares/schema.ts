import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/**
 * The live share link of one decision; `_id` is the decision's id, so a decision has at most one
 * link and a new one replaces the old in one atomic upsert. The token itself is never stored, only
 * its SHA-256 (`token_hash`, unique): a copy of the database (a backup, a leaked dump) opens no
 * decision. A revoked link is deleted, so it stops working at the next read. Kept apart from the
 * decision, which is written once and read by the statistics: sharing never rewrites it.
 */
export interface DecisionShareDocument extends BaseDocument {
  token_hash: string;
  /** The owner, who alone may see, replace or revoke the link. */
  user_id: string;
  /** Whether the link shows the decision's images (off unless the owner chose it). */
  include_images: boolean;
  created_at: Date;
}

export const decisionShareSchema = new Schema<DecisionShareDocument>(
  {
    _id: { type: String, required: true, minlength: 1 },
    token_hash: { type: String, required: true, match: /^[0-9a-f]{64}$/ },
    user_id: { type: String, required: true, minlength: 1 },
    include_images: { type: Boolean, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: "decision_shares", versionKey: false, strict: "throw", id: false },
);
// Every open of a link looks it up by its token's hash; two links never share one.
decisionShareSchema.index({ token_hash: 1 }, { unique: true });

export const decisionSharesCollection = defineCollection<DecisionShareDocument>("decision_shares", decisionShareSchema);
