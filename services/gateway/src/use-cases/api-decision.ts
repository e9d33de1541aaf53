import { randomUUID } from "node:crypto";
import { DecisionRequestSchema, IMAGE_TOO_LARGE, MESSAGES, type DecisionRequest, type StoredDecision, type V1EnsembleResponse, type VoteEvent } from "@sd/contracts";
import type { VoteFeed } from "@sd/live";
import type { ApiDecisionInput, DecisionUseCases } from "./decisions";
import { DomainError } from "./errors";

/**
 * A decision request built by an adapter (chat completions, MCP), checked by the shared schema with
 * the REST API's texts; `paramOf` names the adapter's own field for a failing one.
 */
export function parseDecisionRequest(input: unknown, paramOf: (field: PropertyKey | undefined) => string | undefined = () => undefined): DecisionRequest {
  const parsed = DecisionRequestSchema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "custom" && (issue.params as { reason?: string } | undefined)?.reason === IMAGE_TOO_LARGE) throw new DomainError("too-large", MESSAGES.imagesTooLarge);
  const param = paramOf(issue.path[0]);
  throw new DomainError("invalid", issue.message, param === undefined ? {} : { param });
}

/**
 * An API decision waited for, with the stored decision behind its answer; `onVote` hears each
 * model's settled vote as it arrives (a stream's chunks, MCP progress), and `signal` cancels the
 * decision's pending calls when the client goes away.
 */
export async function decideAndWait(
  decisions: DecisionUseCases,
  votes: VoteFeed,
  { request, preset, requester, idempotencyKey, signal }: Pick<ApiDecisionInput, "request" | "preset" | "requester" | "idempotencyKey" | "signal">,
  onVote?: (event: VoteEvent) => void,
): Promise<{ result: V1EnsembleResponse; stored: StoredDecision }> {
  const requestId = randomUUID();
  const stopListening = onVote
    ? votes.listen(requestId, (event) => {
        if (event.status !== "pending") onVote(event);
      })
    : () => undefined;
  try {
    const outcome = await decisions.submitApiDecision({ request: onVote ? { ...request, request_id: requestId } : request, preset, requester, idempotencyKey, respondAsync: false, signal });
    if (outcome.kind !== "decided") throw new Error("a decision asked to wait answered as queued");
    return outcome;
  } finally {
    stopListening();
  }
}
