/**
 * Exact accuracy of a judge that follows a fixed rule (the accuracy lab's simulated judge, see
 * LAB_DESCRIPTION in the provider emulator): it picks the category with the highest summed
 * confidence over the panel's answers, listed in panel order; a tie goes to the category that
 * appears first in that list. A real judge model follows no such rule: this is the yardstick the
 * lab measures the product's judge plumbing against.
 */
import { beatsAll, ConfidenceSums, type ConfidenceModel } from "./confidence";
import { answerPatterns, countsOf } from "./patterns";

/** P(the summed-confidence judge picks the correct category), by enumeration, under the confidence model. */
export function confidenceJudgeAccuracy(accuracies: readonly number[], categoryCount: number, confidence: ConfidenceModel): number {
  const sums = new ConfidenceSums(confidence);
  let accuracy = 0;
  for (const { votes, probability } of answerPatterns(accuracies, categoryCount)) {
    const counts = countsOf(votes, categoryCount);
    if (counts[0] === 0) continue;
    const firstSeen = (c: number) => votes.indexOf(c);
    const rivals = counts.flatMap((count, c) => (c !== 0 && count > 0 ? [{ category: c, sum: sums.of("wrong", count), offset: 0 }] : []));
    accuracy += probability * beatsAll(sums.of("right", counts[0]!), rivals, (j) => firstSeen(0) < firstSeen(rivals[j]!.category));
  }
  return accuracy;
}
