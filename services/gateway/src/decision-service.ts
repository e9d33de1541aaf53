import { randomUUID } from "node:crypto";
import { ConfigError, type GatewayEnv } from "@sd/config";
import { MESSAGES, type DecisionRequest, type DecisionResponse } from "@sd/contracts";
import { quorumWeights } from "@sd/ensemble";
import { pendingProgress, type LiveEvents } from "@sd/live";
import { DecisionLostError, type CallCancels, type DecisionLane, DecisionTimeoutError, deleteIfEqual, requestIdClaimKey, type DecisionFlow, type DecisionInFlight, type ImageStash, type Redis } from "@sd/queue";
import type { EnsembleDefaults, ResolvedEnsemble } from "./ensemble-options";
import { DomainError } from "./use-cases/errors";

/** Longest default vote deadline; unset, the votes also get at most half the HTTP wait, the rest left for queueing and writing the decision. */
const DEFAULT_VOTE_DEADLINE_MS = 30_000;

/**
 * VOTE_DEADLINE_MS, or half of DECISION_TIMEOUT_MS (at most 30 s) when unset. It must be below
 * DECISION_TIMEOUT_MS: a vote allowed to outlast the HTTP wait would turn one slow or rate-limited
 * model into a 504 for a decision the other models could make.
 */
export function voteDeadlineMs(env: Pick<GatewayEnv, "VOTE_DEADLINE_MS" | "DECISION_TIMEOUT_MS">): number {
  const deadline = env.VOTE_DEADLINE_MS ?? Math.min(DEFAULT_VOTE_DEADLINE_MS, Math.floor(env.DECISION_TIMEOUT_MS / 2));
  if (deadline >= env.DECISION_TIMEOUT_MS) {
    throw new ConfigError(
      `VOTE_DEADLINE_MS: must be below DECISION_TIMEOUT_MS (${env.DECISION_TIMEOUT_MS}), so a decision is made from the models that answered before its request gives up`,
    );
  }
  return deadline;
}

export interface Requester {
  ip: string | null;
  user: { id: string; email: string } | null;
  /** The API key of a `/v1` call (its owner is `user`); null for the web endpoints. */
  apiKeyId: string | null;
}

export interface SubmitOptions {
  /** Early quorum when the request does not say (on for /v1, off for the web endpoints). */
  earlyQuorumByDefault: boolean;
  decisionId?: string;
  /** The decision this one re-runs: stored on the new decision as its `rerun_of`. */
  rerunOf?: string;
  /**
   * `batch`: a line of a batch. Its jobs go after every interactive one (see LANE_PRIORITIES) and
   * it is admitted against MAX_BATCH_IN_FLIGHT, not the interactive in-flight limit. Default interactive.
   */
  lane?: DecisionLane;
  /** How long `start`'s result waits (default DECISION_TIMEOUT_MS): a batch line may wait behind interactive traffic. */
  waitMs?: number;
}

export interface DecisionServiceDeps {
  flow: DecisionFlow;
  images: ImageStash;
  live: LiveEvents;
  redis: Redis;
  /** A decision the aggregator already wrote, as the decision endpoints answer it (null when it is not stored). */
  findStored(decisionId: string): Promise<DecisionResponse | null>;
  /** The configured models and the defaults of a request's ensemble options. */
  ensemble: EnsembleDefaults;
  /** How long the HTTP request waits for the result (DECISION_TIMEOUT_MS). */
  timeoutMs: number;
  /** How long a decision's votes may take, retries included (see `voteDeadlineMs`). */
  voteDeadlineMs: number;
  /** The same for a batch line (its votes may wait behind interactive ones); voteDeadlineMs when unset. */
  batchVoteDeadlineMs?: number;
  /** How long a decision's images stay readable in Redis (IMAGE_TTL_SECONDS). */
  imageTtlSeconds: number;
  /** Why the store cannot write decisions now (a full disk), or null: new decisions are then refused at once (507). */
  storeRefusal(): Error | null;
  /** Decisions this gateway may have in flight before it refuses new ones (MAX_IN_FLIGHT_DECISIONS). */
  maxInFlight: number;
  /** The `Retry-After` of that refusal (OVERLOAD_RETRY_AFTER_SECONDS). */
  overloadRetryAfterSeconds: number;
  /** Batch decisions this gateway may have in flight (their own bound: they never take the interactive ones' room). */
  maxBatchInFlight?: number;
  /** Cancels a decision's calls when its client goes away. */
  cancels: CallCancels;
}

/** How long past DECISION_TIMEOUT_MS a request id stays claimed: a decision answered 504 still finishes (and sends its events) a little later. */
export const REQUEST_ID_CLAIM_MARGIN_MS = 60_000;

/** The life of a request id's claim, in milliseconds. */
export function requestIdClaimMs(decisionTimeoutMs: number): number {
  return decisionTimeoutMs + REQUEST_ID_CLAIM_MARGIN_MS;
}

/** A submitted decision and its result to come. */
export interface StartedDecision {
  decisionId: string;
  result: Promise<DecisionResponse>;
}

/**
 * Turns a validated request into a queued decision and its result to come (`start`: the wait
 * begins before the enqueue), so plain HTTP clients need no socket; socket clients watch the same
 * decision live in their request's room. `submit` queues without waiting, so a `/v1` caller can
 * poll later, and `wait` lets a retried request wait for a decision another request submitted.
 * The images are stored once, by reference: the jobs carry only their keys.
 */
export class DecisionService {
  /** Decisions being queued without a wait (`submit`): in flight too, until they are queued. */
  private submitting = 0;
  /** Batch decisions waited for: counted by the flow's waits, but not against the interactive limit. */
  private batchWaits = 0;

  constructor(private readonly deps: DecisionServiceDeps) {}

  get ensembleDefaults(): EnsembleDefaults {
    return this.deps.ensemble;
  }

  /** The web endpoints: start, and answer with the result (never through an API key; early quorum only when asked for). */
  async decide(request: DecisionRequest, requester: Omit<Requester, "apiKeyId">): Promise<DecisionResponse> {
    const { result } = await this.start(request, { ...requester, apiKeyId: null }, { earlyQuorumByDefault: false });
    return result;
  }

  /**
   * Submits a decision and hands back its result to come. The wait begins before the enqueue, so
   * the aggregator's outcome cannot be missed and nothing has to be read back from the queue.
   */
  async start(request: DecisionRequest, requester: Requester, options: SubmitOptions): Promise<StartedDecision> {
    const batch = options.lane === "batch";
    if (batch) this.admitBatch();
    else this.admit();
    const decisionId = options.decisionId ?? randomUUID();
    const pending = this.deps.flow.listen(decisionId, options.waitMs ?? this.deps.timeoutMs);
    if (batch) this.batchWaits += 1;
    try {
      await this.enqueueDecision(request, requester, { ...options, decisionId });
    } catch (error) {
      pending.cancel();
      if (batch) this.batchWaits -= 1;
      throw error;
    }
    pending.enqueued();
    const result = this.answer(decisionId, pending.result);
    return { decisionId, result: batch ? this.countedAsBatch(result) : result };
  }

  /**
   * `wait` for a batch line's decision (re-attached after a restart): counted against the batch
   * bound, not the interactive one, and waiting `waitMs`.
   */
  waitBatch(decisionId: string, waitMs: number): Promise<DecisionResponse> {
    this.batchWaits += 1;
    return this.countedAsBatch(this.answer(decisionId, this.deps.flow.waitForDecision(decisionId, waitMs)));
  }

  /** Refuses a batch decision while the store cannot write, or past MAX_BATCH_IN_FLIGHT (the runner keeps below it). */
  admitBatch(): void {
    const refusal = this.deps.storeRefusal();
    if (refusal) throw refusal;
    if (this.batchWaits < (this.deps.maxBatchInFlight ?? Number.POSITIVE_INFINITY)) return;
    throw new DomainError("busy", MESSAGES.overloaded, { retryAfterSeconds: this.deps.overloadRetryAfterSeconds });
  }

  /** Ends a batch wait's count once its result settles. */
  private async countedAsBatch(result: Promise<DecisionResponse>): Promise<DecisionResponse> {
    try {
      return await result;
    } finally {
      this.batchWaits -= 1;
    }
  }

  /**
   * Enqueues the decision and resolves with its id once it is queued. `decisionId` lets a caller
   * fix the id beforehand (an idempotency record names it before the decision exists).
   */
  async submit(request: DecisionRequest, requester: Requester, options: SubmitOptions): Promise<string> {
    this.admit();
    // No wait counts this one: count it while it is being queued.
    this.submitting += 1;
    try {
      return await this.enqueueDecision(request, requester, options);
    } finally {
      this.submitting -= 1;
    }
  }

  /**
   * The aggregator's result for a submitted decision, whichever request submitted it; a 504 after
   * DECISION_TIMEOUT_MS (the decision still completes and is stored); a 503 as soon as its flow is
   * found gone after a Redis restart without persistence (it would never complete).
   */
  wait(decisionId: string): Promise<DecisionResponse> {
    return this.answer(decisionId, this.deps.flow.waitForDecision(decisionId, this.deps.timeoutMs));
  }

  /**
   * Refuses a new decision at once while the store cannot write it (a full disk: 507, until its
   * probe finds room again), or while this gateway already has MAX_IN_FLIGHT_DECISIONS in
   * flight: under overload the decisions already accepted keep their pace (first come, first
   * served) and a client is told when to come back, instead of waiting in an ever longer queue.
   * The decision routes also call it first of all, so a refusal costs no Redis call.
   */
  admit(): void {
    const refusal = this.deps.storeRefusal();
    if (refusal) throw refusal;
    // Batch decisions have their own bound: they never push an interactive one into a 503.
    if (this.deps.flow.waitingCount - this.batchWaits + this.submitting < this.deps.maxInFlight) return;
    throw new DomainError("busy", MESSAGES.overloaded, { retryAfterSeconds: this.deps.overloadRetryAfterSeconds });
  }

  private async answer(decisionId: string, result: Promise<DecisionResponse>): Promise<DecisionResponse> {
    try {
      return await result;
    } catch (error) {
      if (error instanceof DecisionTimeoutError) {
        throw new DomainError("timed-out", "The models are taking too long to answer. Please try again in a moment.");
      }
      if (error instanceof DecisionLostError) {
        // Redis may have restarted right after the aggregator wrote the decision, before the news reached us.
        const stored = await this.deps.findStored(decisionId);
        if (stored) return stored;
        throw new DomainError("lost", MESSAGES.decisionLost);
      }
      // Its write failed through every retry: while the disk is full, say so rather than a bare 500.
      throw this.deps.storeRefusal() ?? error;
    }
  }

  /** Claims the request id, stores the images and enqueues the flow. */
  private async enqueueDecision(
    request: DecisionRequest,
    requester: Requester,
    { earlyQuorumByDefault, decisionId = randomUUID(), rerunOf, lane = "interactive" }: SubmitOptions,
  ): Promise<string> {
    // Before anything is stored: an unknown model is the client's mistake (400).
    const ensemble = this.deps.ensemble.resolve(request, earlyQuorumByDefault);
    const decision_id = decisionId;
    const request_id = request.request_id ?? null;
    const received_at = Date.now();
    if (request_id !== null) await this.claimRequestId(request_id, decision_id);
    try {
      await this.enqueue(request, ensemble, requester, decision_id, received_at, rerunOf ?? null, lane);
    } catch (error) {
      // Not enqueued (Redis went away midway): the client may send the same request_id again.
      if (request_id !== null) await this.releaseRequestId(request_id, decision_id).catch(() => undefined);
      throw error;
    }
    return decision_id;
  }

  /**
   * Cancels the calls of a decision whose client went away: the models not yet asked are not asked
   * and the calls running are aborted, so nobody pays for answers nobody reads. The decision still
   * completes (from the votes that were in) and is stored.
   */
  cancel(decisionId: string): Promise<void> {
    return this.deps.cancels.cancel(decisionId);
  }

  /** The decision's flow while Redis keeps it (in flight, or finished within the hour), else null. */
  inFlight(decisionId: string): Promise<DecisionInFlight | null> {
    return this.deps.flow.lookup(decisionId);
  }

  /** Stores the images and enqueues the decision's flow; deletes the images if that fails. */
  private async enqueue(
    request: DecisionRequest,
    ensemble: ResolvedEnsemble,
    requester: Requester,
    decision_id: string,
    received_at: number,
    rerun_of: string | null,
    lane: DecisionLane,
  ): Promise<void> {
    const { flow, images, live } = this.deps;
    const request_id = request.request_id ?? null;
    const imageRefs = await images.put(decision_id, request.images, this.deps.imageTtlSeconds);
    try {
      if (request_id !== null) for (const provider of ensemble.panel) live.modelProgress(pendingProgress({ request_id, decision_id }, provider));
      // Early quorum: each vote carries every panel weight, so a worker can tell when its vote is no longer needed.
      const earlyQuorumWeights = ensemble.earlyQuorum ? quorumWeights(ensemble.mode, ensemble.panel, ensemble.weights) : null;
      await flow.enqueue({
        decision_id,
        request_id,
        question: request.question,
        categories: request.categories,
        images: imageRefs,
        providers: ensemble.panel,
        ensemble_mode: ensemble.mode,
        weights: ensemble.weights,
        early_quorum: ensemble.earlyQuorum,
        max_rounds: ensemble.maxRounds,
        judge_provider: ensemble.judge,
        received_at,
        // Stamped once here and carried by every vote job: retries and a restarted worker keep it.
        vote_deadline_at: received_at + (lane === "batch" ? (this.deps.batchVoteDeadlineMs ?? this.deps.voteDeadlineMs) : this.deps.voteDeadlineMs),
        is_authenticated: requester.user !== null,
        user_id: requester.user?.id ?? null,
        user_email: requester.user?.email ?? null,
        user_ip: requester.ip,
        api_key_id: requester.apiKeyId,
        rerun_of,
      }, earlyQuorumWeights, lane);
    } catch (error) {
      // Nothing will read them: do not leave up to 30 MB in Redis until they expire.
      await images.delete(imageRefs).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A request id names one decision's room; reusing it would mix two decisions' events. The claim
   * lasts as long as its decision may still send events (the wait for it, plus a margin), not longer:
   * one key per request with an id, for a day, would let a busy deployment fill Redis.
   */
  private async claimRequestId(requestId: string, decisionId: string): Promise<void> {
    const claimed = await this.deps.redis.set(this.requestIdKey(requestId), decisionId, "PX", requestIdClaimMs(this.deps.timeoutMs), "NX");
    if (claimed === null) throw new DomainError("conflict", "This request_id was already used. Send a new UUID for each decision.");
  }

  /** Frees a request id whose decision was never enqueued, if it still names that decision. */
  private async releaseRequestId(requestId: string, decisionId: string): Promise<void> {
    await deleteIfEqual(this.deps.redis, this.requestIdKey(requestId), decisionId);
  }

  private requestIdKey(requestId: string): string {
    return requestIdClaimKey(this.deps.flow.keyPrefix, requestId);
  }
}
