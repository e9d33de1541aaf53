import { Router, type RequestHandler } from "express";
import { DecisionRequestSchema } from "@sd/contracts";
import { signedInUser } from "../auth";
import type { DecisionService } from "../decision-service";
import { parseBody } from "../http/validate";

/**
 * POST /api/ensembled-llm-categorical-decision-public: a decision for anyone, nothing stored as assets.
 * POST /api/ensembled-llm-categorical-decision (bearer): the same for a signed-in user; the stored
 * decision names the user and its images are kept as the user's image assets.
 */
export interface DecisionRouteDeps {
  decisions: DecisionService;
  /** Requests per minute per IP (the public endpoint). */
  publicLimit: RequestHandler;
  /** Body bytes per minute per IP (both endpoints: images are held in Redis while a decision runs). */
  byteLimit: RequestHandler;
  /** The JSON body parser, run after every check that can refuse the request unread. */
  body: RequestHandler;
  requireUser: RequestHandler;
  /** Requests per minute per user (the signed-in endpoint). */
  userLimit: RequestHandler;
}

export function decisionRoutes({ decisions, publicLimit, byteLimit, body, requireUser, userLimit }: DecisionRouteDeps): Router {
  const router = Router();
  router.post("/ensembled-llm-categorical-decision-public", decisions.admission, publicLimit, byteLimit, body, async (req, res) => {
    const request = parseBody(DecisionRequestSchema, req);
    res.json(await decisions.decide(request, { ip: req.ip ?? null, user: null }));
  });
  router.post("/ensembled-llm-categorical-decision", decisions.admission, requireUser, userLimit, byteLimit, body, async (req, res) => {
    const request = parseBody(DecisionRequestSchema, req);
    const { userId, email } = signedInUser(res);
    res.json(await decisions.decide(request, { ip: req.ip ?? null, user: { id: userId, email } }));
  });
  return router;
}
