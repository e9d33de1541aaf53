import { z } from "zod";
import { DecisionHistoryItemSchema, toDecisionHistoryItem } from "./history";
import type { StoredDecision } from "./stored-decision";

/** Texts of share links (the owner's control and the public page). */
export const SHARE_MESSAGES = {
  notFound: "This shared decision does not exist or is no longer shared.",
} as const;

/** Where a share link opens: the public, read-only page of one decision (a client route). */
export const SHARED_PAGE_PREFIX = "/shared/";
export const sharedPagePath = (token: string) => `${SHARED_PAGE_PREFIX}${encodeURIComponent(token)}`;

/**
 * A share token: 32 random bytes in base64url (43 characters, 256 bits). Anything else is refused
 * as not found without a lookup.
 */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** POST /api/decisions/{id}/share. Images stay private unless the owner includes them. */
export const ShareCreateSchema = z
  .object({
    include_images: z.boolean({ error: "include_images must be true or false." }).default(false),
  })
  .strict();
export type ShareCreate = z.output<typeof ShareCreateSchema>;

/** Whether a decision is shared now, as its owner sees it (the link itself is shown once, at creation). */
export const ShareStatusSchema = z.object({
  shared: z.boolean(),
  include_images: z.boolean().nullable(),
  created_at: z.string().nullable(),
});
export type ShareStatus = z.infer<typeof ShareStatusSchema>;

/** A new link: its token and page path, shown to the owner once (only the token's hash is stored). */
export const ShareCreatedSchema = ShareStatusSchema.extend({
  shared: z.literal(true),
  include_images: z.boolean(),
  created_at: z.string(),
  token: z.string().regex(SHARE_TOKEN_PATTERN),
  path: z.string(),
});
export type ShareCreated = z.infer<typeof ShareCreatedSchema>;

/** An image of a shared decision (only when its owner included images). */
export const SharedImageSchema = z.object({
  label: z.string(),
  image_type: z.string(),
  image_data: z.string(),
});
export type SharedImage = z.infer<typeof SharedImageSchema>;

/**
 * What anyone with the link sees: the decision's question, votes and answers (the history item's
 * fields of those names), and nothing that identifies or leads to its owner (no user id, email, IP,
 * API key, cost, decision id or linked decisions). An allow-list, so a field added to decisions
 * later stays private.
 */
export const SharedDecisionSchema = DecisionHistoryItemSchema.pick({
  question: true,
  timestamp: true,
  categories: true,
  final_decision: true,
  vote_counts: true,
  total_votes: true,
  context_explanation: true,
  individual_responses: true,
  confidence_scores: true,
  rationales: true,
  model_versions: true,
  error_details: true,
  processing_time_ms: true,
  ensemble_mode: true,
}).extend({ images: z.array(SharedImageSchema) });
export type SharedDecision = z.infer<typeof SharedDecisionSchema>;

export const SharedDecisionResponseSchema = z.object({ success: z.literal(true), decision: SharedDecisionSchema });
export type SharedDecisionResponse = z.infer<typeof SharedDecisionResponseSchema>;

/** The public form of a stored decision: the schema keeps its allowed fields and drops every other. */
export function toSharedDecision(decision: StoredDecision, images: readonly SharedImage[]): SharedDecision {
  return SharedDecisionSchema.parse({ ...toDecisionHistoryItem(decision), images });
}
