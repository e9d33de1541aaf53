/**
 * Exact theory of the ensemble modes, for the accuracy lab and its tests. Pure: no I/O.
 * - `random-ties`: votes without confidence, ties broken at random (the textbook baseline), any
 *   weights, every panel the product allows.
 * - `product-rule`: the product's own tie policy (summed confidence, then the shuffled order) with
 *   informative confidences (`ConfidenceModel`), and early quorum's calls saved under it.
 * - `confidence-judge`, `peer-gossip`: judge and gossip when the models follow the accuracy lab's
 *   documented rules.
 */
export { pluralityAccuracy, weightedPluralityAccuracy, expectedCallsSaved } from "./random-ties";
export { productRuleAccuracy, productRuleCallsSaved } from "./product-rule";
export { confidenceJudgeAccuracy } from "./confidence-judge";
export { peerGossip, type GossipRule } from "./peer-gossip";
export type { ConfidenceModel } from "./confidence";
