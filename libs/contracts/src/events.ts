import { z } from "zod";
import { DecisionResponseSchema } from "./decision";

/** Socket.IO event names, shared by the server and the web app. */
export const SOCKET_EVENTS = {
  /** client -> server, with an ack: join the room of a request before posting it. */
  join: "decision:join",
  /** server -> client: one model's progress. */
  vote: "decision:vote",
  /** server -> client: the final decision. */
  final: "decision:final",
} as const;

/** Room of one decision request. */
export const requestRoom = (requestId: string): string => `request:${requestId}`;

export const JoinRequestSchema = z.object({ request_id: z.uuid() });
export type JoinRequest = z.infer<typeof JoinRequestSchema>;
export type JoinAck = { ok: true } | { ok: false; error: string };

export const VoteEventSchema = z.object({
  request_id: z.string(),
  decision_id: z.string(),
  provider: z.string(),
  status: z.enum(["pending", "success", "error"]),
  response: z.string().nullable(),
  confidence: z.number().nullable(),
  model_version: z.string().nullable(),
  error: z.string().nullable(),
});
export type VoteEvent = z.infer<typeof VoteEventSchema>;

export const FinalEventSchema = DecisionResponseSchema.extend({ request_id: z.string() });
export type FinalEvent = z.infer<typeof FinalEventSchema>;
