import {
  HISTORY_MESSAGES,
  toDecisionHistoryItem,
  type DecisionHistoryDetailResponse,
  type DecisionHistoryListResponse,
  type DecisionHistoryQuery,
  type DecisionLink,
  type StoredDecision,
} from "@sd/contracts";
import type { Store } from "@sd/store";
import { compareModes, type WeightsOf } from "./compare-modes";
import { DomainError } from "./errors";

/** How many re-runs a decision's page links (newest first); more is a history search, not a page. */
export const RERUN_LINKS_LIMIT = 20;

const toLink = (decision: StoredDecision): DecisionLink => ({
  id: decision.id,
  ensemble_mode: decision.ensemble_mode,
  final_decision: decision.final_decision,
  timestamp: decision.timestamp.toISOString(),
});

/** A user's own decisions: another user's decision is not found, exactly like an unknown id. */
export class HistoryUseCases {
  /** `weightsOf`: today's weighted-vote weights of a panel, for the comparison of modes. */
  constructor(
    private readonly store: Store,
    private readonly weightsOf: WeightsOf = () => null,
  ) {}

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

  /** The decision, its re-runs, and what the other modes would have decided from its votes. */
  async get(userId: string, decisionId: string): Promise<DecisionHistoryDetailResponse> {
    const decision = await this.store.decisions.findOwned(decisionId, userId);
    if (!decision) throw new DomainError("not-found", HISTORY_MESSAGES.notFound);
    const reruns = await this.store.decisions.rerunsOf(decisionId, userId, RERUN_LINKS_LIMIT);
    return {
      success: true,
      decision: toDecisionHistoryItem(decision),
      message: HISTORY_MESSAGES.found,
      reruns: reruns.map(toLink),
      compare: compareModes(decision, reruns, this.weightsOf),
    };
  }
}
