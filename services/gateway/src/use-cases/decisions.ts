import { randomUUID } from "node:crypto";
import {
  consensusScore,
  HISTORY_MESSAGES,
  V1_HEADERS,
  type DecisionRequest,
  type DecisionResponse,
  type StoredDecision,
  type V1DecisionStatus,
  type V1EnsembleResponse,
  type V1VoteStatus,
} from "@sd/contracts";
import type { Store } from "@sd/store";
import { bodyFingerprint, type IdempotencyRecords } from "../api-keys/idempotency";
import type { DecisionService, Requester } from "../decision-service";
import { DomainError } from "./errors";

/**
 * What became of a model's vote: skipped when early quorum did not await it (its record lists it;
 * a skipped vote is never counted, even if its answer came in), else success when it gave a
 * response, else error (its call failed, or it answered outside the categories).
 */
function voteStatus(decision: StoredDecision, provider: string): V1VoteStatus {
  if (decision.ensemble?.early_quorum?.skipped.includes(provider)) return "skipped";
  return decision.individual_responses[provider] != null ? "success" : "error";
}

/** A stored decision as the public API answers it. */
export function toV1EnsembleResponse(decision: StoredDecision): V1EnsembleResponse {
  return {
    decision_id: decision.id,
    ensemble_decision: decision.final_decision,
    vote_details: Object.entries(decision.individual_responses).map(([llm_name, response]) => ({
      llm_name,
      response,
      confidence: decision.confidence_scores[llm_name] ?? null,
      status: voteStatus(decision, llm_name),
    })),
    total_votes: decision.total_votes,
    consensus_score: consensusScore(decision.final_decision, decision.vote_counts),
  };
}

/** A decision asked for through an API key. */
export interface ApiDecisionInput {
  request: DecisionRequest;
  /** The key's owner is the requester's user; the decision is stored as theirs. */
  requester: Requester & { user: { id: string; email: string }; apiKeyId: string };
  /** Makes a retry with the same request answer the first decision. */
  idempotencyKey?: string;
  /** Answer as soon as the decision is queued; the caller polls for the result. */
  respondAsync: boolean;
}

/** The answer to an API decision: its result, or (asked to respond at once) that it is queued. */
export type ApiDecisionOutcome =
  | { kind: "decided"; result: V1EnsembleResponse; replayed: boolean }
  | { kind: "queued"; decisionId: string; replayed: boolean };

interface Started {
  decisionId: string;
  /** The wait for its outcome, when this request started it and waits for it. */
  result: Promise<unknown> | null;
}

export interface DecisionUseCaseDeps {
  store: Store;
  decisions: DecisionService;
  idempotency: IdempotencyRecords;
}

/** The decisions people ask for: in the web app (`decide`), through the API (`submitApiDecision`), and their state (`decisionStatus`). */
export class DecisionUseCases {
  constructor(private readonly deps: DecisionUseCaseDeps) {}

  /** Refuses a new decision at once while this gateway is full or the store cannot write (see DecisionService.admit). */
  admit(): void {
    this.deps.decisions.admit();
  }

  /** A decision from the web app, answered when it is made (early quorum only when the request asks). */
  decide(request: DecisionRequest, requester: Omit<Requester, "apiKeyId">): Promise<DecisionResponse> {
    return this.deps.decisions.decide(request, requester);
  }

  /**
   * A decision through an API key (early quorum on unless the request says otherwise). With an
   * idempotency key, a retry of the same request answers the first decision, and the same key with
   * another request is refused; a claim whose decision could not be queued is released.
   */
  async submitApiDecision({ request, requester, idempotencyKey, respondAsync }: ApiDecisionInput): Promise<ApiDecisionOutcome> {
    const { decisions, idempotency } = this.deps;
    const begin = async (decisionId?: string): Promise<Started> => {
      const options = { earlyQuorumByDefault: true, decisionId };
      if (respondAsync) return { decisionId: await decisions.submit(request, requester, options), result: null };
      return decisions.start(request, requester, options);
    };

    let started: Started;
    let replayed = false;
    if (idempotencyKey === undefined) {
      started = await begin();
    } else {
      const bodyHash = bodyFingerprint(request);
      const claim = await idempotency.claim(requester.apiKeyId, idempotencyKey, bodyHash, randomUUID());
      if (claim.kind === "conflict") {
        throw new DomainError(
          "key-reused",
          `This ${V1_HEADERS.idempotencyKey} was already used with a different request body. Send a new ${V1_HEADERS.idempotencyKey} for a new request.`,
        );
      }
      if (claim.kind === "new") {
        try {
          started = await begin(claim.decisionId);
        } catch (error) {
          await idempotency.release(requester.apiKeyId, idempotencyKey, bodyHash, claim.decisionId).catch(() => undefined);
          throw error;
        }
      } else {
        replayed = true;
        started = { decisionId: claim.decisionId, result: null };
      }
    }

    if (respondAsync) return { kind: "queued", decisionId: started.decisionId, replayed };
    return { kind: "decided", result: await this.storedResult(started, requester.user.id), replayed };
  }

  /** An API decision's state: complete once stored, pending while its flow runs; another user's is not found. */
  async decisionStatus(decisionId: string, ownerId: string): Promise<V1DecisionStatus> {
    const { store, decisions } = this.deps;
    const complete = (decision: StoredDecision): V1DecisionStatus => ({ decision_id: decisionId, status: "complete", result: toV1EnsembleResponse(decision) });

    const stored = await store.decisions.findOwned(decisionId, ownerId);
    if (stored) return complete(stored);
    const flow = await decisions.inFlight(decisionId);
    // Another user's decision and an unknown id get the same answer.
    if (!flow || flow.userId !== ownerId) throw new DomainError("not-found", HISTORY_MESSAGES.notFound);
    if (flow.state === "failed") throw new DomainError("failed", "The decision could not be completed. Please submit it again.");
    if (flow.state === "completed") {
      // Stored between the two reads above.
      const finished = await store.decisions.findOwned(decisionId, ownerId);
      if (finished) return complete(finished);
    }
    return { decision_id: decisionId, status: "pending", result: null };
  }

  /**
   * The decision's result once it is stored, waiting for it while it runs: through the wait this
   * request began, else whichever request started it.
   */
  private async storedResult({ decisionId, result }: Started, ownerId: string): Promise<V1EnsembleResponse> {
    const { store, decisions } = this.deps;
    let stored = result ? null : await store.decisions.findOwned(decisionId, ownerId);
    if (!stored) {
      // The aggregator stores the decision before it publishes the outcome, so it can be read right after.
      await (result ?? decisions.wait(decisionId));
      stored = await store.decisions.findOwned(decisionId, ownerId);
    }
    if (!stored) throw new Error(`decision ${decisionId} finished but is not in the store`);
    return toV1EnsembleResponse(stored);
  }
}
