import { randomUUID } from "node:crypto";
import { DEFAULT_ENSEMBLE_MODE, type DecisionRequest, type DecisionResponse, type ProviderId } from "@sd/contracts";
import type { DecisionFlow, LiveEvents, Redis } from "@sd/queue";
import { HttpError } from "./http/errors";

export interface Requester {
  ip: string | null;
  user: { id: string; email: string } | null;
}

/**
 * Turns a validated request into a queued decision and waits for its result, so plain HTTP
 * clients need no socket; socket clients watch the same decision live in their request's room.
 */
export class DecisionService {
  constructor(
    private readonly flow: DecisionFlow,
    private readonly events: LiveEvents,
    private readonly redis: Redis,
    private readonly providers: readonly ProviderId[],
    private readonly timeoutMs: number,
  ) {}

  async decide(request: DecisionRequest, requester: Requester): Promise<DecisionResponse> {
    const decision_id = randomUUID();
    const request_id = request.request_id ?? null;
    if (request_id !== null) await this.claimRequestId(request_id, decision_id);

    for (const provider of request_id === null ? [] : this.providers) {
      this.events.vote({
        request_id: request_id!,
        decision_id,
        provider,
        status: "pending",
        response: null,
        confidence: null,
        model_version: null,
        error: null,
      });
    }
    const job = await this.flow.enqueue({
      decision_id,
      request_id,
      question: request.question,
      categories: request.categories,
      images: request.images,
      providers: [...this.providers],
      ensemble_mode: DEFAULT_ENSEMBLE_MODE,
      received_at: Date.now(),
      is_authenticated: requester.user !== null,
      user_id: requester.user?.id ?? null,
      user_email: requester.user?.email ?? null,
      user_ip: requester.ip,
    });
    try {
      return await this.flow.waitForResult(job, this.timeoutMs);
    } catch (error) {
      if (/timed out/i.test((error as Error).message)) {
        throw new HttpError(504, "The models are taking too long to answer. Please try again in a moment.");
      }
      throw error;
    }
  }

  /** A request id names one decision's room; reusing it would mix two decisions' events. */
  private async claimRequestId(requestId: string, decisionId: string): Promise<void> {
    const claimed = await this.redis.set(`${this.flow.keyPrefix}:request:${requestId}`, decisionId, "EX", 24 * 3600, "NX");
    if (claimed === null) throw new HttpError(409, "This request_id was already used. Send a new UUID for each decision.");
  }
}
