import type { RequestHandler, Router } from "express";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { signedInUser } from "../auth";
import { currentApiKey } from "../api-keys/middleware";
import { EndpointRouter } from "../http/endpoint-router";
import type { HistoryUseCases } from "../use-cases/history";

/**
 * The signed-in user's history (bearer). Reading it is not counted against the decision rate
 * limit, so browsing never uses up a user's decisions.
 */
export function decisionHistoryRoutes(history: HistoryUseCases, requireUser: RequestHandler): Router {
  return new EndpointRouter("/api", { bearer: requireUser })
    .mount(ENDPOINTS.listMyDecisions, {
      handler: async ({ query, res }) => ({ status: 200, body: await history.list(signedInUser(res).userId, query) }),
    })
    .mount(ENDPOINTS.getMyDecision, {
      handler: async ({ params, res }) => ({ status: 200, body: await history.get(signedInUser(res).userId, params.id) }),
    }).router;
}

/** The key owner's history list, at its public API path and at the external path outside /v1. */
export function keyHistoryRoutes(history: HistoryUseCases, keyAccess: RequestHandler): Router {
  const router = new EndpointRouter("", { "api-key": keyAccess });
  for (const endpoint of [ENDPOINTS.listDecisionHistory, ENDPOINTS.listDecisionHistoryExternal]) {
    router.mount(endpoint, {
      handler: async ({ query, res }) => ({ status: 200, body: await history.list(currentApiKey(res).user_id, query) }),
    });
  }
  return router.router;
}
