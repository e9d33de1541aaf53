import { z } from "zod";
import { DecisionResponseSchema } from "./decision";
import { EnsembleModeSchema } from "./ensemble";

/** Queue of the parent job that tallies a decision once its votes are in. */
export const AGGREGATE_QUEUE = "decision-aggregate";
/** Queue one provider's worker consumes. */
export const voteQueueName = (provider: string): string => `vote-${provider}`;
/** Job ids carry no ':' (BullMQ reserves it); re-adding the same id is a no-op, so no duplicate votes. */
export const voteJobId = (decisionId: string, provider: string): string => `${decisionId}-${provider}`;

/**
 * A reference to one image of a decision in flight. The bytes are stored once, in Redis, under
 * `key` (with a bounded life), not in every job: workers and the aggregator read them by key.
 */
export const ImageRefSchema = z.object({
  key: z.string(),
  /** image1, image2, ... */
  label: z.string(),
  image_type: z.string(),
  file_size: z.number().int().nonnegative(),
});
export type ImageRef = z.infer<typeof ImageRefSchema>;

/** A model's standing answer as a gossiping peer is shown it. */
export const ShownAnswerSchema = z.object({
  provider: z.string(),
  label: z.string(),
  round: z.number().int().min(1),
  category: z.string(),
  confidence: z.number().nullable(),
  reason: z.string().nullable(),
});
export type ShownAnswer = z.infer<typeof ShownAnswerSchema>;

/** A panel model's answer as the judge is shown it. */
export const PanelAnswerSchema = z.object({
  provider: z.string(),
  label: z.string(),
  category: z.string().nullable(),
  confidence: z.number().nullable(),
  reason: z.string().nullable(),
  error: z.string().nullable(),
});
export type PanelAnswer = z.infer<typeof PanelAnswerSchema>;

/** Job id of a vote after the first round (gossip) and of a judge's verdict; round 1 keeps `voteJobId`. */
export const roundJobId = (decisionId: string, provider: string, round: number): string =>
  round === 1 ? voteJobId(decisionId, provider) : `${decisionId}-${provider}-r${round}`;
export const judgeJobId = (decisionId: string, provider: string): string => `${decisionId}-${provider}-judge`;

export const VoteJobSchema = z.object({
  decision_id: z.string(),
  request_id: z.string().nullable(),
  provider: z.string(),
  question: z.string(),
  categories: z.array(z.string()),
  images: z.array(ImageRefSchema),
  /**
   * Epoch ms after which no call is made for this vote (VOTE_DEADLINE_MS after the gateway
   * accepted the decision): set once per decision, so retries and a restarted worker keep it.
   * Jobs enqueued before deadlines existed carry none.
   */
  vote_deadline_at: z.number().optional(),
  /** The round of the decision this vote belongs to (gossip asks again in later rounds); 1 when absent. */
  round: z.number().int().min(1).optional(),
  /** `judge`: this model judges the panel's answers instead of voting. Absent means `vote`. */
  task: z.enum(["vote", "judge"]).optional(),
  /** Gossip, rounds after the first: the other models' standing answers, and this model's own. */
  peers: z.array(ShownAnswerSchema).optional(),
  previous: ShownAnswerSchema.nullable().optional(),
  /** Judge: every panel model's answer (category null with its error for a failed one). */
  panel_answers: z.array(PanelAnswerSchema).optional(),
  /** Early quorum: every panel model's weight. With it, this vote may be skipped or cancelled once the winner is certain. */
  quorum_weights: z.record(z.string(), z.number().nonnegative()).optional(),
});
export type VoteJob = z.infer<typeof VoteJobSchema>;

export const AggregateJobSchema = z.object({
  decision_id: z.string(),
  request_id: z.string().nullable(),
  question: z.string(),
  categories: z.array(z.string()),
  images: z.array(ImageRefSchema),
  providers: z.array(z.string()),
  ensemble_mode: EnsembleModeSchema,
  /** Each panel model's vote weight (weighted voting and early quorum); 1 each when absent. */
  weights: z.record(z.string(), z.number().nonnegative()).optional(),
  /** Decide as soon as the remaining votes cannot change the winner (majority and weighted modes). */
  early_quorum: z.boolean().optional(),
  /** Gossip: the most rounds, the first included. */
  max_rounds: z.number().int().min(1).optional(),
  /** Judge: the provider that judges. */
  judge_provider: z.string().nullable().optional(),
  /** Epoch ms at which the gateway accepted the request. */
  received_at: z.number(),
  /** Epoch ms by which every vote has answered or is recorded as an error (each vote job carries it). Older flows carry none. */
  vote_deadline_at: z.number().optional(),
  is_authenticated: z.boolean(),
  user_id: z.string().nullable(),
  user_email: z.string().nullable(),
  user_ip: z.string().nullable(),
  /** The API key a `/v1` call was made with (its owner is `user_id`); null for the web endpoints. */
  api_key_id: z.string().nullable(),
  /** The decision this one re-runs (POST /api/decisions/{id}/rerun); absent otherwise. */
  rerun_of: z.string().nullable().optional(),
});
export type AggregateJob = z.infer<typeof AggregateJobSchema>;

/**
 * The aggregator's word to the gateways that a decision is finished: its response once it is
 * written, or why it failed for good. Published on the decision-outcomes channel (see
 * libs/queue/src/decision-outcomes.ts), so a waiting request is answered as soon as it is published;
 * the queue is read only for waits that outlast a few seconds or a Redis reconnect.
 */
export const DecisionOutcomeSchema = z.discriminatedUnion("ok", [
  z.object({ decision_id: z.string(), ok: z.literal(true), response: DecisionResponseSchema }),
  z.object({ decision_id: z.string(), ok: z.literal(false), reason: z.string() }),
]);
export type DecisionOutcome = z.infer<typeof DecisionOutcomeSchema>;
