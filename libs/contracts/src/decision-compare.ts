import { z } from "zod";
import { DecisionResponseSchema, RequestIdSchema } from "./decision";
import { EnsembleModeSchema, EnsembleOptionsSchema } from "./ensemble";

/**
 * Body of POST /api/decisions/{id}/rerun: the ensemble options of the new decision. An option left
 * out keeps the first decision's (its mode, panel, judge, early quorum); the question, categories
 * and images are always the first decision's.
 */
export const RerunRequestSchema = z.object({
  ...EnsembleOptionsSchema.shape,
  request_id: RequestIdSchema.optional(),
});
export type RerunRequest = z.infer<typeof RerunRequestSchema>;

/** The re-run's decision, and the decision it re-runs. */
export const RerunResponseSchema = DecisionResponseSchema.extend({ rerun_of: z.string() });
export type RerunResponse = z.infer<typeof RerunResponseSchema>;

/** A re-run of a decision, as its detail page links it. */
export const DecisionLinkSchema = z.object({
  id: z.string(),
  ensemble_mode: EnsembleModeSchema,
  final_decision: z.string().nullable(),
  timestamp: z.string(),
});
export type DecisionLink = z.infer<typeof DecisionLinkSchema>;

/** How the winner was chosen among categories that shared the top score (the tie policy of `majorityVote`). */
export const TIE_BREAKS = ["none", "confidence", "category_order"] as const;
export const TieBreakSchema = z.enum(TIE_BREAKS);

/**
 * What one mode decides (or would have) on this decision's question:
 * - `recomputed`: majority or weighted vote, counted again from the stored votes (no model was asked);
 * - `decided`: the decision's own mode (judge or gossip);
 * - `rerun`: a re-run of the decision in that mode (`decision_id` names it);
 * - `not_run`: judge or gossip needs the models again: run it as a re-run.
 */
export const ModeOutcomeSchema = z.object({
  mode: EnsembleModeSchema,
  source: z.enum(["recomputed", "decided", "rerun", "not_run"]),
  /** True for the mode the decision was made with. */
  current: z.boolean(),
  final_decision: z.string().nullable(),
  /** Score per category (votes; weighted votes for the weighted mode); {} unless recomputed. */
  scores: z.record(z.string(), z.number()),
  /** Recomputed: which rule picked the winner among tied categories; null otherwise. */
  tie_break: TieBreakSchema.nullable(),
  /** Recomputed: the categories that shared the top score before the tie-break. */
  leaders: z.array(z.string()),
  /** The decision that holds this outcome (decided: this one; rerun: the re-run); null otherwise. */
  decision_id: z.string().nullable(),
});
export type ModeOutcome = z.infer<typeof ModeOutcomeSchema>;

/** "What would the other modes have decided?": one outcome per mode, from the votes the decision stored. */
export const ModeComparisonSchema = z.object({
  /** The independent first-round votes the recomputed outcomes count. */
  votes_counted: z.number().int().nonnegative(),
  outcomes: z.array(ModeOutcomeSchema),
});
export type ModeComparison = z.infer<typeof ModeComparisonSchema>;
