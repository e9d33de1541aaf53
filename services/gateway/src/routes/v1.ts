import type { Request, RequestHandler, Router } from "express";
import { V1_HEADERS, type V1Accepted } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { readIdempotencyKey } from "../api-keys/idempotency";
import { currentApiKey } from "../api-keys/middleware";
import { EndpointRouter } from "../http/endpoint-router";
import type { DecisionUseCases } from "../use-cases/decisions";
import { admission } from "./decisions";

/** True when the Prefer header (RFC 7240) asks for `respond-async`, among any other preferences. */
function prefersAsync(req: Request): boolean {
  const prefer = req.get(V1_HEADERS.prefer);
  if (!prefer) return false;
  return prefer.split(",").some((preference) => preference.split(";")[0]!.trim().toLowerCase() === V1_HEADERS.respondAsync);
}

const statusPath = (decisionId: string) => `/v1/decisions/${encodeURIComponent(decisionId)}`;

export interface V1RouteDeps {
  decisions: DecisionUseCases;
  /** SD-API-KEY authentication, the per-key rate limit and the monthly quota (see `keyAccess`). */
  keyAccess: RequestHandler;
  /** The key's monthly spend limit: a new decision is refused (402) once its decisions this month cost that much. */
  spendLimit: RequestHandler;
  /** Body bytes per minute per IP, before the key is charged (see `perIpByteLimit`). */
  byteLimit: RequestHandler;
  /** The JSON body reader for bodies with images. */
  imageBody: RequestHandler;
}

/** The public REST API's decisions under /v1 (SD-API-KEY): stored as the key owner's, so they show in the owner's history. */
export function v1Routes({ decisions, keyAccess, spendLimit, byteLimit, imageBody }: V1RouteDeps): Router {
  return new EndpointRouter("/v1", { "api-key": keyAccess })
    .mount(ENDPOINTS.createEnsembleDecision, {
      before: [admission(decisions), byteLimit],
      // Before the body is read and any model asked.
      after: [spendLimit],
      bodyReader: imageBody,
      handler: async ({ body, req, res }) => {
        const key = currentApiKey(res);
        const { prompt, valid_responses, preset, ...options } = body;
        const outcome = await decisions.submitApiDecision({
          request: { ...options, question: prompt, categories: valid_responses },
          preset,
          requester: { ip: req.ip ?? null, user: { id: key.user_id, email: key.created_by }, apiKeyId: key.id },
          idempotencyKey: readIdempotencyKey(req),
          respondAsync: prefersAsync(req),
        });
        const replayed: Record<string, string> = outcome.replayed ? { "Idempotent-Replayed": "true" } : {};
        if (outcome.kind === "decided") return { status: 200, body: outcome.result, headers: replayed };
        const status_url = statusPath(outcome.decisionId);
        const accepted: V1Accepted = { decision_id: outcome.decisionId, status: "pending", status_url };
        return { status: 202, body: accepted, headers: { ...replayed, "Preference-Applied": V1_HEADERS.respondAsync, Location: status_url } };
      },
    })
    .mount(ENDPOINTS.getEnsembleDecision, {
      handler: async ({ params, res }) => ({ status: 200, body: await decisions.decisionStatus(params.id, currentApiKey(res).user_id) }),
    }).router;
}
