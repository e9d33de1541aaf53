export { decisionSchema, decisionsCollection, type DecisionDocument, type VoteCountEntry } from "./schema";
export { createDecisionRepository, DecisionNotFoundError, type DecisionPage, type DecisionRepository, type LateVoteFields } from "./repository";
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
