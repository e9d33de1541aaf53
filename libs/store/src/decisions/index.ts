export { decisionSchema, decisionsCollection, type DecisionDocument, type VoteCountEntry } from "./schema";
export {
  createDecisionRepository,
  DecisionNotFoundError,
  openDecisionRepository,
  SHARED_STORE_SETTLE_MS,
  type DecisionPage,
  type DecisionRepository,
  type DecisionRepositoryOptions,
  type LateVoteFields,
} from "./repository";
export { decisionRollupsCollection, rollupSchema, type RollupDocument } from "./rollup-schema";
export type { DecisionListQuery } from "./list-query";
export {
  ACTIVE_IPS_LIMIT,
  ACTIVE_USERS_LIMIT,
  ANONYMOUS_USER,
  RECENT_DECISIONS_LIMIT,
  TOP_CATEGORIES_LIMIT,
  TREND_DAYS,
  type HealthFigures,
  type StatsWindow,
} from "./admin-stats";
