import { randomUUID } from "node:crypto";
import { Router, type Request, type RequestHandler } from "express";
import {
  consensusScore,
  HISTORY_MESSAGES,
  V1_HEADERS,
  V1EnsembleRequestSchema,
  type DecisionRequest,
  type StoredDecision,
  type V1Accepted,
  type V1DecisionStatus,
  type V1EnsembleResponse,
  type V1VoteStatus,
} from "@sd/contracts";
import type { Store } from "@sd/store";
import { bodyFingerprint, readIdempotencyKey, type IdempotencyRecords } from "../api-keys/idempotency";
import { currentApiKey } from "../api-keys/middleware";
import type { DecisionService, Requester } from "../decision-service";
import { HttpError } from "../http/errors";
import { parseBody } from "../http/validate";

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

/** True when the Prefer header (RFC 7240) asks for `respond-async`, among any other preferences. */
function prefersAsync(req: Request): boolean {
  const prefer = req.get(V1_HEADERS.prefer);
  if (!prefer) return false;
  return prefer.split(",").some((preference) => preference.split(";")[0]!.trim().toLowerCase() === V1_HEADERS.respondAsync);
}

const statusPath = (decisionId: string) => `/v1/decisions/${encodeURIComponent(decisionId)}`;

export interface V1RouteDeps {
  store: Store;
  decisions: DecisionService;
  idempotency: IdempotencyRecords;
  /** SD-API-KEY authentication, the per-key rate limit and the monthly quota (see `keyAccess`). */
  keyAccess: RequestHandler;
  /** Body bytes per minute per IP, before the key is charged (see `perIpByteLimit`). */
  byteLimit: RequestHandler;
  /** The JSON body parser, run after the key check (see http/json-body.ts). */
  body: RequestHandler;
  /** The web app's decision-history routes with `keyAccess` in place of the bearer check. */
  history: RequestHandler;
}

/**
 * The public REST API under /v1 (SD-API-KEY). Decisions are stored as the key owner's, so they show
 * in the owner's history. An `Idempotency-Key` makes a retried POST with the same body and key answer
 * the first decision (for IDEMPOTENCY_TTL_SECONDS); the same key with another body is a 422.
 */
export function v1Routes({ store, decisions, idempotency, keyAccess, byteLimit, body: readBody, history }: V1RouteDeps): Router {
  const router = Router();
  // Only the list: the history router also serves /decision-history/{id}, which is not part of this API.
  router.get("/decision-history", history);

  /**
   * The decision's result once it is stored, waiting for it while it runs: through `pending` when
   * this request started it, else whichever request did.
   */
  async function result(decisionId: string, ownerId: string, pending: Promise<unknown> | null): Promise<V1EnsembleResponse> {
    let stored = pending ? null : await store.decisions.findOwned(decisionId, ownerId);
    if (!stored) {
      // The aggregator stores the decision before it publishes the outcome, so it can be read right after.
      await (pending ?? decisions.wait(decisionId));
      stored = await store.decisions.findOwned(decisionId, ownerId);
    }
    if (!stored) throw new Error(`decision ${decisionId} finished but is not in the store`);
    return toV1EnsembleResponse(stored);
  }

  router.post("/ensemble", decisions.admission, byteLimit, keyAccess, readBody, async (req, res) => {
    const key = currentApiKey(res);
    const body = parseBody(V1EnsembleRequestSchema, req);
    const idempotencyKey = readIdempotencyKey(req);
    const { prompt, valid_responses, ...options } = body;
    const request: DecisionRequest = { ...options, question: prompt, categories: valid_responses };
    const requester: Requester = { ip: req.ip ?? null, user: { id: key.user_id, email: key.created_by }, apiKeyId: key.id };

    const async = prefersAsync(req);
    /** A new decision: with a wait begun before it is enqueued, unless the client will poll for it. */
    const begin = async (decisionId?: string): Promise<{ decisionId: string; result: Promise<unknown> | null }> => {
      const options = { earlyQuorumByDefault: true, decisionId };
      if (async) return { decisionId: await decisions.submit(request, requester, options), result: null };
      return decisions.start(request, requester, options);
    };
    let started: { decisionId: string; result: Promise<unknown> | null };
    if (idempotencyKey === undefined) {
      started = await begin();
    } else {
      const bodyHash = bodyFingerprint(request);
      const claim = await idempotency.claim(key.id, idempotencyKey, bodyHash, randomUUID());
      if (claim.kind === "conflict") {
        throw new HttpError(
          422,
          `This ${V1_HEADERS.idempotencyKey} was already used with a different request body. Send a new ${V1_HEADERS.idempotencyKey} for a new request.`,
        );
      }
      if (claim.kind === "new") {
        try {
          started = await begin(claim.decisionId);
        } catch (error) {
          await idempotency.release(key.id, idempotencyKey, bodyHash, claim.decisionId).catch(() => undefined);
          throw error;
        }
      } else {
        res.setHeader("Idempotent-Replayed", "true");
        started = { decisionId: claim.decisionId, result: null };
      }
    }
    const { decisionId } = started;

    if (async) {
      const status_url = statusPath(decisionId);
      res.setHeader("Preference-Applied", V1_HEADERS.respondAsync);
      res.status(202).location(status_url).json({ decision_id: decisionId, status: "pending", status_url } satisfies V1Accepted);
      return;
    }
    res.json(await result(decisionId, key.user_id, started.result));
  });

  router.get("/decisions/:id", keyAccess, async (req, res) => {
    const ownerId = currentApiKey(res).user_id;
    const decisionId = req.params.id as string;
    const complete = (decision: StoredDecision): V1DecisionStatus => ({ decision_id: decisionId, status: "complete", result: toV1EnsembleResponse(decision) });

    const stored = await store.decisions.findOwned(decisionId, ownerId);
    if (stored) return void res.json(complete(stored));
    const flow = await decisions.inFlight(decisionId);
    // Another user's decision and an unknown id get the same answer.
    if (!flow || flow.userId !== ownerId) throw new HttpError(404, HISTORY_MESSAGES.notFound);
    if (flow.state === "failed") throw new HttpError(500, "The decision could not be completed. Please submit it again.");
    if (flow.state === "completed") {
      // Stored between the two reads above.
      const finished = await store.decisions.findOwned(decisionId, ownerId);
      if (finished) return void res.json(complete(finished));
    }
    res.json({ decision_id: decisionId, status: "pending", result: null } satisfies V1DecisionStatus);
  });

  return router;
}
