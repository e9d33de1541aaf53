import { Router, type RequestHandler } from "express";
import { DecisionRequestSchema } from "@sd/contracts";
import type { DecisionService } from "../decision-service";
import { parseBody } from "../http/validate";

/** POST /api/ensembled-llm-categorical-decision-public: a decision for anyone, nothing stored as assets. */
export function decisionRoutes(decisions: DecisionService, rateLimit: RequestHandler): Router {
  const router = Router();
  router.post("/ensembled-llm-categorical-decision-public", rateLimit, async (req, res) => {
    const request = parseBody(DecisionRequestSchema, req);
    res.json(await decisions.decide(request, { ip: req.ip ?? null, user: null }));
  });
  return router;
}
