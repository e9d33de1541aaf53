import {
  HISTORY_MESSAGES,
  toDecisionHistoryItem,
  type DecisionHistoryDetailResponse,
  type DecisionHistoryListResponse,
  type DecisionHistoryQuery,
} from "@sd/contracts";
import type { Store } from "@sd/store";
import { DomainError } from "./errors";

/** A user's own decisions: another user's decision is not found, exactly like an unknown id. */
export class HistoryUseCases {
  constructor(private readonly store: Store) {}

  /** A page of the user's decisions, newest first, with the filters applied. */
  async list(userId: string, query: DecisionHistoryQuery): Promise<DecisionHistoryListResponse> {
    const { decisions, total } = await this.store.decisions.page({ ...query, userId });
    return {
      success: true,
      decisions: decisions.map(toDecisionHistoryItem),
      message: HISTORY_MESSAGES.listed(total),
      total,
      limit: query.limit,
      offset: query.offset,
    };
  }

  async get(userId: string, decisionId: string): Promise<DecisionHistoryDetailResponse> {
    const decision = await this.store.decisions.findOwned(decisionId, userId);
    if (!decision) throw new DomainError("not-found", HISTORY_MESSAGES.notFound);
    return { success: true, decision: toDecisionHistoryItem(decision), message: HISTORY_MESSAGES.found };
  }
}
