import {
  HISTORY_MESSAGES,
  type DecisionHistoryItem,
  type DecisionHistoryListResponse,
  type DecisionLink,
  type ImageAsset,
  type ModeComparison,
  type RerunRequest,
  type RerunResponse,
} from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { AuthorizationSource } from "../api/authorized";
import { ApiError } from "../api/client";
import { callEndpoint } from "../api/endpoint";
import type { HistoryFilters } from "./history-filters";

/**
 * TanStack Query keys of the history side. Every key holds the user id, so one user's cached
 * history is never shown to the next user signing in on the same device.
 */
export const historyKeys = {
  /** Every cached page of one user's history (what a live event invalidates). */
  user: (userId: string) => ["decision-history", userId] as const,
  list: (userId: string, filters: HistoryFilters) => ["decision-history", userId, filters] as const,
  decision: (id: string, userId: string | null) => ["decision", id, userId] as const,
  imageAssets: (decisionId: string, userId: string | null) => ["image-assets", decisionId, userId] as const,
};

/** A history answer with `success: false`: its message, else the dashboard's fallback. */
export class HistoryUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "HistoryUnavailableError";
  }
}

/** GET /api/decision-history (bearer): one page of the signed-in user's decisions, newest first. */
export async function fetchHistoryPage(query: Record<string, string>, session: AuthorizationSource): Promise<DecisionHistoryListResponse> {
  const page = await callEndpoint(ENDPOINTS.listMyDecisions, { query }, session);
  if (!page.success) throw new HistoryUnavailableError(page.message.trim() || HISTORY_MESSAGES.fetchFailed);
  return page;
}

/** A decision as its page shows it: the history item, its re-runs, and what the other modes would have decided. */
export type DecisionDetailItem = DecisionHistoryItem & { reruns: DecisionLink[]; compare: ModeComparison | null };

/** GET /api/decision-history/{id} (bearer). A 404, or an answer without a decision, is 'Decision not found'. */
export async function fetchDecision(id: string, session: AuthorizationSource): Promise<DecisionDetailItem> {
  try {
    const answer = await callEndpoint(ENDPOINTS.getMyDecision, { params: { id } }, session);
    if (!answer.success) throw new ApiError(404, HISTORY_MESSAGES.notFound);
    return { ...answer.decision, reruns: answer.reruns ?? [], compare: answer.compare ?? null };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw new ApiError(404, HISTORY_MESSAGES.notFound);
    throw error;
  }
}

/**
 * GET /api/image-assets/decision/{id}: the decision's stored images, with the bearer token when the
 * session has a valid one and without it otherwise (the endpoint works either way).
 */
export async function fetchDecisionImageAssets(decisionId: string, session: AuthorizationSource): Promise<ImageAsset[]> {
  const answer = await callEndpoint(ENDPOINTS.listDecisionImageAssets, { params: { id: decisionId } }, session);
  return answer.imageAssets;
}

/** POST /api/decisions/{id}/rerun (bearer): the models asked again, as a new decision linked to this one. */
export function rerunDecision(id: string, options: RerunRequest, session: AuthorizationSource): Promise<RerunResponse> {
  return callEndpoint(ENDPOINTS.rerunMyDecision, { params: { id }, body: options }, session);
}
