import { randomUUID } from "node:crypto";
import {
  HISTORY_MESSAGES,
  V1_HEADERS,
  type DecisionRequest,
  type DecisionResponse,
  type EnsembleOptions,
  type RerunRequest,
  type RerunResponse,
  type StoredDecision,
  type V1DecisionStatus,
  type V1EnsembleResponse,
} from "@sd/contracts";
import type { Store } from "@sd/store";
import { bodyFingerprint, type IdempotencyRecords } from "../api-keys/idempotency";
import type { DecisionService, Requester } from "../decision-service";
import { DomainError } from "./errors";
import { withPreset } from "./presets";
import { toV1EnsembleResponse } from "./v1-answer";

/** The ensemble options a decision was made with, so a re-run changes only what it names. */
function ensembleOptionsOf(decision: StoredDecision): EnsembleOptions {
  const record = decision.ensemble;
  return {
    ensemble_mode: decision.ensemble_mode,
    // Decisions stored before modes kept no panel: the default panel then.
    models: record?.panel,
    early_quorum: record ? record.early_quorum !== null : undefined,
    judge_model: record?.judge?.provider,
  };
}

/** The options that are set: an option sent as undefined must not hide the first decision's. */
function withoutUnset<T extends object>(options: T): Partial<T> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** A decision asked for through an API key. */
export interface ApiDecisionInput {
  request: DecisionRequest;
  /** The key's owner is the requester's user; the decision is stored as theirs. */
  requester: Requester & { user: { id: string; email: string }; apiKeyId: string };
  /** Makes a retry with the same request answer the first decision. */
  idempotencyKey?: string;
  /** The name of one of the key owner's panel presets: its options apply where the request sets none. */
  preset?: string;
  /** Answer as soon as the decision is queued; the caller polls for the result. */
  respondAsync: boolean;
  /** Fires when the client waiting for the answer goes away: the decision's pending calls are cancelled. */
  signal?: AbortSignal;
}

/** The answer to an API decision: its result, or (asked to respond at once) that it is queued. */
export type ApiDecisionOutcome =
  | { kind: "decided"; result: V1EnsembleResponse; stored: StoredDecision; replayed: boolean }
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
   * Asks the models again on one of the user's decisions (its question, categories and images), as a
   * new decision linked to it by `rerun_of`. Options left out keep the first decision's. Another
   * user's decision is not found, exactly like an unknown id.
   */
  async rerun(decisionId: string, options: RerunRequest, requester: Omit<Requester, "apiKeyId"> & { user: { id: string; email: string } }): Promise<RerunResponse> {
    const { store, decisions } = this.deps;
    const original = await store.decisions.findOwned(decisionId, requester.user.id);
    if (!original) throw new DomainError("not-found", HISTORY_MESSAGES.notFound);
    const assets = original.images.length > 0 ? await store.imageAssets.listForDecision(original.id, requester.user.id) : [];
    const request: DecisionRequest = {
      question: original.question,
      categories: original.categories,
      images: assets.map((asset) => asset.image_data),
      ...withoutUnset({ ...ensembleOptionsOf(original), ...withoutUnset(options) }),
    };
    const { result } = await decisions.start(request, { ...requester, apiKeyId: null }, { earlyQuorumByDefault: false, rerunOf: original.id });
    return { ...(await result), rerun_of: original.id };
  }

  /**
   * A decision through an API key (early quorum on unless the request says otherwise). With an
   * idempotency key, a retry of the same request answers the first decision, and the same key with
   * another request is refused; a claim whose decision could not be queued is released.
   */
  async submitApiDecision({ request: sent, preset, requester, idempotencyKey, respondAsync, signal }: ApiDecisionInput): Promise<ApiDecisionOutcome> {
    const { decisions, idempotency } = this.deps;
    const begin = async (decisionId?: string): Promise<Started> => {
      // Resolved only for a decision to run: a replay answers the first one even if the preset changed or went since.
      const request = await withPreset(this.deps.store.presets, requester.user.id, preset, sent);
      const options = { earlyQuorumByDefault: true, decisionId };
      if (respondAsync) return { decisionId: await decisions.submit(request, requester, options), result: null };
      return decisions.start(request, requester, options);
    };

    let started: Started;
    let replayed = false;
    if (idempotencyKey === undefined) {
      started = await begin();
    } else {
      // The body as sent, the preset by its name.
      const bodyHash = bodyFingerprint(preset === undefined ? sent : { ...sent, preset });
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
    // Only the request that started the decision cancels it: a replay's client leaving ends just its own wait.
    const stopCancelling = started.result && signal ? this.cancelOnAbort(started.decisionId, signal) : () => undefined;
    try {
      const stored = await this.storedDecision(started, requester.user.id);
      return { kind: "decided", result: toV1EnsembleResponse(stored), stored, replayed };
    } finally {
      stopCancelling();
    }
  }

  /** Cancels the decision's pending calls if `signal` fires before the returned function is called. */
  private cancelOnAbort(decisionId: string, signal: AbortSignal): () => void {
    const cancel = () => {
      // Best effort: if Redis cannot take it, the calls simply run to their end.
      this.deps.decisions.cancel(decisionId).catch(() => undefined);
    };
    if (signal.aborted) {
      cancel();
      return () => undefined;
    }
    signal.addEventListener("abort", cancel, { once: true });
    return () => signal.removeEventListener("abort", cancel);
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
   * The decision once it is stored, waiting for it while it runs: through the wait this
   * request began, else whichever request started it.
   */
  private async storedDecision({ decisionId, result }: Started, ownerId: string): Promise<StoredDecision> {
    const { store, decisions } = this.deps;
    let stored = result ? null : await store.decisions.findOwned(decisionId, ownerId);
    if (!stored) {
      // The aggregator stores the decision before it publishes the outcome, so it can be read right after.
      await (result ?? decisions.wait(decisionId));
      stored = await store.decisions.findOwned(decisionId, ownerId);
    }
    if (!stored) throw new Error(`decision ${decisionId} finished but is not in the store`);
    return stored;
  }
}
