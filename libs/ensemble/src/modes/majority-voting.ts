import { outcomeLine } from "../explanation";
import { countingMode } from "./vote-count";

/**
 * `majority_voting`: one vote per model, each of weight 1 (configured weights count only in
 * `weighted_voting`). The tie policy is `majorityVote`'s.
 */
export const majorityVoting = countingMode({
  weightOf: () => 1,
  headline: (_ctx, tally) => [outcomeLine(tally)],
});
