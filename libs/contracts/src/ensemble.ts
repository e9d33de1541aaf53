import { z } from "zod";

/**
 * How a decision combines its models' answers (one per request, stored on the decision):
 * - `majority_voting`: one vote per model, the most votes win (the documented tie policy);
 * - `weighted_voting`: each vote counts with its model's weight (configured, or learned from its accuracy);
 * - `judge`: the panel votes, then a judge model reads every answer and reason and picks the category;
 * - `gossip`: models see each other's previous answers and may change theirs, round after round.
 */
export const ENSEMBLE_MODES = ["majority_voting", "weighted_voting", "judge", "gossip"] as const;
export const EnsembleModeSchema = z.enum(ENSEMBLE_MODES, {
  error: `ensemble_mode must be one of ${ENSEMBLE_MODES.join(", ")}.`,
});
export type EnsembleMode = z.infer<typeof EnsembleModeSchema>;

/** What the playground and the docs call each mode. */
export const ENSEMBLE_MODE_LABELS: Readonly<Record<EnsembleMode, string>> = {
  majority_voting: "Majority vote",
  weighted_voting: "Weighted vote",
  judge: "Judge model",
  gossip: "Gossip rounds",
};

export const ENSEMBLE_LIMITS = {
  /** Gossip rounds when the request names none (the first, independent round included). */
  defaultRounds: 3,
  maxRounds: 5,
} as const;

/**
 * The ensemble options of a decision request (both web endpoints and `/v1/ensemble`). All are
 * optional: unset, a decision is a majority vote of the default panel, as the playground's.
 */
export const EnsembleOptionsSchema = z.object({
  ensemble_mode: EnsembleModeSchema.optional().meta({ description: "How the answers are combined (default majority_voting)." }),
  /** The panel: any subset of the configured models, by provider id; unset means the default panel. */
  models: z
    .array(z.string({ error: "models must be a list of model ids." }).min(1).max(100), { error: "models must be a list of model ids." })
    .min(1, "Choose at least one model.")
    .max(20, "Choose at most 20 models.")
    .optional()
    .meta({ description: "The panel: provider ids from GET /api/providers (default: the default panel)." }),
  /** Decide as soon as the votes still to come cannot change the winner, cancelling their calls. */
  early_quorum: z.boolean({ error: "early_quorum must be true or false." }).optional().meta({
    description: "Answer as soon as the remaining votes cannot change the winner; their calls are cancelled (majority and weighted modes).",
  }),
  /** Gossip only: the most rounds, the first included. */
  max_rounds: z
    .number({ error: `max_rounds must be a whole number from 1 to ${ENSEMBLE_LIMITS.maxRounds}.` })
    .int(`max_rounds must be a whole number from 1 to ${ENSEMBLE_LIMITS.maxRounds}.`)
    .min(1, `max_rounds must be a whole number from 1 to ${ENSEMBLE_LIMITS.maxRounds}.`)
    .max(ENSEMBLE_LIMITS.maxRounds, `max_rounds must be a whole number from 1 to ${ENSEMBLE_LIMITS.maxRounds}.`)
    .optional()
    .meta({ description: `Gossip mode: the most rounds, the first included (default ${ENSEMBLE_LIMITS.defaultRounds}).` }),
  /** Judge only: the provider id of the judge (default: the configured JUDGE_PROVIDER). */
  judge_model: z.string({ error: "judge_model must be a model id." }).min(1).max(100).optional().meta({
    description: "Judge mode: the provider id of the judge (default: the server's JUDGE_PROVIDER).",
  }),
});
export type EnsembleOptions = z.infer<typeof EnsembleOptionsSchema>;

/** One model's answer in one round, as the decision keeps it. */
export const RoundAnswerSchema = z.object({
  provider: z.string(),
  round: z.number().int().min(1),
  category: z.string().nullable(),
  confidence: z.number().nullable(),
  reason: z.string().nullable(),
  error: z.string().nullable(),
});
export type RoundAnswer = z.infer<typeof RoundAnswerSchema>;

/** How the ensemble reached the decision: kept on the stored decision and shown by its detail page. */
export const EnsembleRecordSchema = z.object({
  mode: EnsembleModeSchema,
  /** The models asked, in row order. */
  panel: z.array(z.string()),
  /** Each model's weight when the mode weighs votes (weighted voting), else empty. */
  weights: z.record(z.string(), z.number()),
  /** Every round's answers (one round unless gossip). */
  rounds: z.array(z.array(RoundAnswerSchema)),
  /** The judge's verdict (judge mode), or null. */
  judge: z
    .object({
      provider: z.string(),
      category: z.string().nullable(),
      reason: z.string().nullable(),
      error: z.string().nullable(),
      /** The judge failed and the majority vote decided. */
      fallback: z.boolean(),
    })
    .nullable(),
  /** Early quorum: which votes were not needed, and how many model calls that saved; null when off. */
  early_quorum: z
    .object({
      skipped: z.array(z.string()),
      calls_saved: z.number().int().nonnegative(),
    })
    .nullable(),
});
export type EnsembleRecord = z.infer<typeof EnsembleRecordSchema>;
