import type { RequestHandler, Router } from "express";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { signedInUser } from "../auth";
import { EndpointRouter } from "../http/endpoint-router";
import type { ShareUseCases } from "../use-cases/shares";

/**
 * Every answer of a shared decision (found, not found or rate limited): never indexed, and never
 * cached, so a revoked link is a 404 at once, also behind a proxy.
 */
const publicShareHeaders: RequestHandler = (_req, res, next) => {
  res.set({ "X-Robots-Tag": "noindex", "Cache-Control": "no-store" });
  next();
};

/** The owner's share control (bearer) and the public read of a link (rate limited per address). */
export function shareRoutes(shares: ShareUseCases, requireUser: RequestHandler, publicLimit: RequestHandler): Router {
  return new EndpointRouter("/api", { bearer: requireUser })
    .mount(ENDPOINTS.getDecisionShare, {
      handler: async ({ params, res }) => ({ status: 200, body: await shares.status(signedInUser(res).userId, params.id) }),
    })
    .mount(ENDPOINTS.shareDecision, {
      handler: async ({ params, body, res }) => ({ status: 201, body: await shares.create(signedInUser(res).userId, params.id, body) }),
    })
    .mount(ENDPOINTS.revokeDecisionShare, {
      handler: async ({ params, res }) => ({ status: 200, body: await shares.revoke(signedInUser(res).userId, params.id) }),
    })
    .mount(ENDPOINTS.getSharedDecision, {
      before: [publicShareHeaders, publicLimit],
      handler: async ({ params }) => ({ status: 200, body: await shares.open(params.token) }),
    }).router;
}
