export { decisionSchema, decisionsCollection, type DecisionDocument, type VoteCountEntry } from "./schema";
export { createDecisionRepository, DecisionNotFoundError, type DecisionPage, type DecisionRepository, type LateVoteFields } from "./repository";
export type { DecisionListQuery } from "./list-query";
