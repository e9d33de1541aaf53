export { decisionSharesCollection, type DecisionShareDocument } from "./schema";
export { createDecisionShareRepository, type DecisionShareRepository, type StoredShare } from "./repository";
