import { randomUUID } from "node:crypto";
import { DEFAULT_ENSEMBLE_MODE, type DecisionRequest, type DecisionResponse, type ProviderId } from "@sd/contracts";
import { pendingProgress, type LiveEvents } from "@sd/live";
import type { DecisionFlow, ImageStash, Redis } from "@sd/queue";
import { HttpError } from "./http/errors";

export interface Requester {
  ip: string | null;
  user: { id: string; email: string } | null;
}

export interface DecisionServiceDeps {
  flow: DecisionFlow;
  images: ImageStash;
  live: LiveEvents;
  redis: Redis;
  providers: readonly ProviderId[];
  /** How long the HTTP request waits for the result (DECISION_TIMEOUT_MS). */
  timeoutMs: number;
  /** How long a decision's images stay readable in Redis (IMAGE_TTL_SECONDS). */
  imageTtlSeconds: number;
}

/**
 * Turns a validated request into a queued decision and waits for its result, so plain HTTP
 * clients need no socket; socket clients watch the same decision live in their request's room.
 * The images are stored once, by reference: the jobs carry only their keys.
 */
export class DecisionService {
  constructor(private readonly deps: DecisionServiceDeps) {}

  async decide(request: DecisionRequest, requester: Requester): Promise<DecisionResponse> {
    const { flow, images, live, providers } = this.deps;
    const decision_id = randomUUID();
    const request_id = request.request_id ?? null;
    if (request_id !== null) await this.claimRequestId(request_id, decision_id);

    const imageRefs = await images.put(decision_id, request.images, this.deps.imageTtlSeconds);
    if (request_id !== null) for (const provider of providers) live.modelProgress(pendingProgress({ request_id, decision_id }, provider));
    let job: Awaited<ReturnType<DecisionFlow["enqueue"]>>;
    try {
      job = await flow.enqueue({
        decision_id,
        request_id,
        question: request.question,
        categories: request.categories,
        images: imageRefs,
        providers: [...providers],
        ensemble_mode: DEFAULT_ENSEMBLE_MODE,
        received_at: Date.now(),
        is_authenticated: requester.user !== null,
        user_id: requester.user?.id ?? null,
        user_email: requester.user?.email ?? null,
        user_ip: requester.ip,
      });
    } catch (error) {
      // Nothing will read them: do not leave up to 30 MB in Redis until they expire.
      await images.delete(imageRefs).catch(() => undefined);
      throw error;
    }
    try {
      return await flow.waitForResult(job, this.deps.timeoutMs);
    } catch (error) {
      if (/timed out/i.test((error as Error).message)) {
        throw new HttpError(504, "The models are taking too long to answer. Please try again in a moment.");
      }
      throw error;
    }
  }

  /** A request id names one decision's room; reusing it would mix two decisions' events. */
  private async claimRequestId(requestId: string, decisionId: string): Promise<void> {
    const claimed = await this.deps.redis.set(`${this.deps.flow.keyPrefix}:request:${requestId}`, decisionId, "EX", 24 * 3600, "NX");
    if (claimed === null) throw new HttpError(409, "This request_id was already used. Send a new UUID for each decision.");
  }
}
