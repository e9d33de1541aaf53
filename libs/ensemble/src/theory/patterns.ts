import { checkPanel } from "./panel";

/**
 * One way a panel can answer a question: `votes[i]` is model i's category, 0 for the correct one
 * and 1, 2, … for wrong ones, numbered in the order they first appear. Which wrong category is
 * which does not matter to any rule the theories model (each is symmetric in the wrong categories,
 * and the request's order is a uniform shuffle), so `probability` sums every labelling of the
 * pattern: with 8 models and 20 categories that is thousands of patterns instead of 20⁸ answers.
 */
export interface AnswerPattern {
  votes: number[];
  probability: number;
}

/** Every answer pattern of the panel (model i right with probability accuracies[i], else a uniform wrong category). */
export function answerPatterns(accuracies: readonly number[], categoryCount: number): AnswerPattern[] {
  checkPanel(accuracies, categoryCount);
  const patterns: AnswerPattern[] = [];
  const extend = (votes: number[], wrongUsed: number, probability: number): void => {
    if (probability === 0) return;
    const i = votes.length;
    if (i === accuracies.length) {
      patterns.push({ votes, probability });
      return;
    }
    const p = accuracies[i]!;
    const perWrong = (1 - p) / (categoryCount - 1);
    extend([...votes, 0], wrongUsed, probability * p);
    for (let w = 1; w <= wrongUsed; w++) extend([...votes, w], wrongUsed, probability * perWrong);
    // A wrong category nobody chose yet: any of the unused ones, which all lead to the same pattern.
    const unused = categoryCount - 1 - wrongUsed;
    if (unused > 0) extend([...votes, wrongUsed + 1], wrongUsed + 1, probability * perWrong * unused);
  };
  extend([], 0, 1);
  return patterns;
}

/** How many models voted each category (0 = correct), over all `categoryCount` categories. */
export function countsOf(votes: readonly number[], categoryCount: number): number[] {
  const counts = new Array<number>(categoryCount).fill(0);
  for (const v of votes) counts[v]! += 1;
  return counts;
}
