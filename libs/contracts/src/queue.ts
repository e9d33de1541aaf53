import { z } from "zod";

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
});
export type VoteJob = z.infer<typeof VoteJobSchema>;

export const AggregateJobSchema = z.object({
  decision_id: z.string(),
  request_id: z.string().nullable(),
  question: z.string(),
  categories: z.array(z.string()),
  images: z.array(ImageRefSchema),
  providers: z.array(z.string()),
  ensemble_mode: z.literal("majority_voting"),
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
});
export type AggregateJob = z.infer<typeof AggregateJobSchema>;
