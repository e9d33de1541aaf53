import { z } from "zod";
import { DecisionResponseSchema } from "./decision";
import { TokenUsageSchema } from "./vote";

/** Socket.IO event names, shared by the server and the web app. */
export const SOCKET_EVENTS = {
  /** client -> server, with an ack: join the room of a request before posting it. */
  join: "decision:join",
  /** server -> client: one model's progress. */
  vote: "decision:vote",
  /** server -> client: the final decision. */
  final: "decision:final",
  /** client -> server, with an ack: follow the signed-in user's own history (payload: the access token). */
  watchHistory: "history:watch",
  /** server -> client, in the user's room: one of their decisions was stored. */
  historyDecision: "history:decision",
  /** server -> client, in the user's room: one of their batches moved on (at most a few times a second per batch). */
  batchProgress: "batch:progress",
} as const;

/** Room of one decision request. */
export const requestRoom = (requestId: string): string => `request:${requestId}`;

/** Room of one signed-in user's history; joined only with a valid access token of that user. */
export const userRoom = (userId: string): string => `user:${userId}`;

export const JoinRequestSchema = z.object({ request_id: z.uuid() });
export type JoinRequest = z.infer<typeof JoinRequestSchema>;
export type JoinAck = { ok: true } | { ok: false; error: string };

export const VoteEventSchema = z.object({
  request_id: z.string(),
  decision_id: z.string(),
  provider: z.string(),
  status: z.enum(["pending", "success", "error", "skipped"]),
  /** The round (gossip asks again in later rounds; a judge's verdict is reported as round 0 with provider the judge). 1 when absent. */
  round: z.number().int().min(0).optional(),
  response: z.string().nullable(),
  confidence: z.number().nullable(),
  /** The model's one-sentence reason, with its answer. */
  rationale: z.string().nullable(),
  model_version: z.string().nullable(),
  error: z.string().nullable(),
  /** A settled vote's call: how long it took, its tokens (null when not reported) and their price (0 when simulated). Absent while pending. */
  latency_ms: z.number().nonnegative().optional(),
  usage: TokenUsageSchema.nullable().optional(),
  cost_usd: z.number().nonnegative().optional(),
});
export type VoteEvent = z.infer<typeof VoteEventSchema>;

export const FinalEventSchema = DecisionResponseSchema.extend({ request_id: z.string() });
export type FinalEvent = z.infer<typeof FinalEventSchema>;

export const WatchHistoryRequestSchema = z.object({ access_token: z.string().min(1).max(4096) });
export type WatchHistoryRequest = z.infer<typeof WatchHistoryRequestSchema>;

/** Sent to the owner's room when a decision of theirs is stored (the dashboard then reloads its page). */
export const HistoryDecisionEventSchema = z.object({ decision_id: z.string(), timestamp: z.string() });
export type HistoryDecisionEvent = z.infer<typeof HistoryDecisionEventSchema>;

/** Sent to the owner's room while a batch runs (throttled), and once more when it ends. */
export const BatchProgressEventSchema = z.object({
  batch_id: z.string(),
  status: z.enum(["validating", "in_progress", "completed", "cancelled", "failed"]),
  request_counts: z.object({ total: z.number().int().nonnegative(), completed: z.number().int().nonnegative(), failed: z.number().int().nonnegative() }),
});
export type BatchProgressEvent = z.infer<typeof BatchProgressEventSchema>;
