import type { RequestHandler, Router } from "express";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { signedInUser } from "../auth";
import { EndpointRouter } from "../http/endpoint-router";
import type { DecisionUseCases } from "../use-cases/decisions";

/** The in-flight limit, checked before anything else of a decision request runs, so a refusal costs no Redis call. */
export function admission(decisions: DecisionUseCases): RequestHandler {
  return (_req, _res, next) => {
    decisions.admit();
    next();
  };
}

export interface DecisionRouteDeps {
  decisions: DecisionUseCases;
  /** Requests per minute per IP (the public endpoint). */
  publicLimit: RequestHandler;
  /** Body bytes per minute per IP (both endpoints: images are held in Redis while a decision runs). */
  byteLimit: RequestHandler;
  /** The JSON body reader for bodies with images. */
  imageBody: RequestHandler;
  requireUser: RequestHandler;
  /** Requests per minute per user (the signed-in endpoint). */
  userLimit: RequestHandler;
}

/** The web app's decisions: for anyone (nothing kept as image assets), and for a signed-in user (stored as theirs). */
export function decisionRoutes({ decisions, publicLimit, byteLimit, imageBody, requireUser, userLimit }: DecisionRouteDeps): Router {
  const admit = admission(decisions);
  return new EndpointRouter("/api", { bearer: requireUser })
    .mount(ENDPOINTS.decidePublic, {
      before: [admit, publicLimit, byteLimit],
      bodyReader: imageBody,
      handler: async ({ body, req }) => ({ status: 200, body: await decisions.decide(body, { ip: req.ip ?? null, user: null }) }),
    })
    .mount(ENDPOINTS.decide, {
      before: [admit],
      after: [userLimit, byteLimit],
      bodyReader: imageBody,
      handler: async ({ body, req, res }) => {
        const { userId, email } = signedInUser(res);
        return { status: 200, body: await decisions.decide(body, { ip: req.ip ?? null, user: { id: userId, email } }) };
      },
    })
    // A re-run is a new decision: admitted and limited as one.
    .mount(ENDPOINTS.rerunMyDecision, {
      before: [admit],
      after: [userLimit],
      handler: async ({ params, body, req, res }) => {
        const { userId, email } = signedInUser(res);
        return { status: 200, body: await decisions.rerun(params.id, body, { ip: req.ip ?? null, user: { id: userId, email } }) };
      },
    }).router;
}
