import type { ModeOutcome } from "@sd/contracts";

/** "1 vote", "3 votes". */
const votes = (n: number) => `${n} ${n === 1 ? "vote" : "votes"}`;

/** "A and B", "A, B and C". */
function listed(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** A weighted score as the ensemble's explanation writes it (two decimals). */
const score = (value: number) => value.toFixed(2);

/**
 * How the comparison reached a mode's outcome, in one line: the stored votes counted again (with
 * the weighted scores, and the tie policy when the top was shared), the decision itself, a re-run,
 * or that the models must be asked again.
 */
export function outcomeBasis(outcome: ModeOutcome, votesCounted: number): string {
  switch (outcome.source) {
    case "recomputed": {
      const parts = [`${votes(votesCounted)} counted again, no model asked`];
      if (outcome.mode === "weighted_voting") {
        const scored = Object.entries(outcome.scores).filter(([, value]) => value > 0);
        if (scored.length > 0) parts.push(`scores ${scored.map(([category, value]) => `${category} ${score(value)}`).join(", ")}`);
      }
      if (outcome.tie_break === "confidence") parts.push(`tie between ${listed(outcome.leaders)} broken by summed confidence`);
      if (outcome.tie_break === "category_order") parts.push(`tie between ${listed(outcome.leaders)} broken by the order of the categories`);
      return parts.join("; ");
    }
    case "decided":
      return "How this decision was made";
    case "rerun":
      return "From a re-run of this decision";
    case "not_run":
      return "Needs the models again: run it as a new decision";
  }
}
