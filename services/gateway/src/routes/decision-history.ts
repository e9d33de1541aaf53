import { Router, type RequestHandler } from "express";
import {
  DecisionHistoryQuerySchema,
  HISTORY_MESSAGES,
  toDecisionHistoryItem,
  type DecisionHistoryDetailResponse,
  type DecisionHistoryListResponse,
} from "@sd/contracts";
import type { Store } from "@sd/store";
import { signedInUser } from "../auth";
import { HttpError } from "../http/errors";
import { parseQuery } from "../http/validate";

/**
 * GET /api/decision-history[/:id] (bearer): the caller's decisions. Another user's decision answers
 * exactly like an unknown id, so ids cannot be probed; these reads are not counted against the
 * decision rate limit, so browsing never uses up a user's decisions.
 */
export function decisionHistoryRoutes(store: Store, requireUser: RequestHandler): Router {
  const router = Router();

  router.get("/decision-history", requireUser, async (req, res) => {
    const { userId } = signedInUser(res);
    const query = parseQuery(DecisionHistoryQuerySchema, req);
    const { decisions, total } = await store.decisions.page({ ...query, userId });
    res.json({
      success: true,
      decisions: decisions.map(toDecisionHistoryItem),
      message: HISTORY_MESSAGES.listed(total),
      total,
      limit: query.limit,
      offset: query.offset,
    } satisfies DecisionHistoryListResponse);
  });

  router.get("/decision-history/:id", requireUser, async (req, res) => {
    const { userId } = signedInUser(res);
    const decision = await store.decisions.findOwned(req.params.id as string, userId);
    if (!decision) throw new HttpError(404, HISTORY_MESSAGES.notFound);
    res.json({ success: true, decision: toDecisionHistoryItem(decision), message: HISTORY_MESSAGES.found } satisfies DecisionHistoryDetailResponse);
  });

  return router;
}
