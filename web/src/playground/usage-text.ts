import { formatProcessingTime } from "../history/format";
import { formatCost, formatCount } from "../settings/format";
import type { VoteStats } from "./decision-run";
import type { UsageTotals } from "./usage-totals";

/** What a simulated call costs, said plainly instead of "$0.00" beside made-up token counts. */
export const NO_COST_SIMULATED = "Simulated: no cost";
/** A real call whose vendor reported no token counts. */
export const TOKENS_NOT_REPORTED = "Tokens not reported";

export const tokensText = (input: number, output: number): string => `${formatCount(input)} in / ${formatCount(output)} out tokens`;

/**
 * A settled call's figures as its row shows them: latency, tokens in / out and cost; a simulated
 * call shows its latency and that it cost nothing, never the simulator's token estimates.
 */
export function statsParts(stats: VoteStats, simulated: boolean): string[] {
  const latency = formatProcessingTime(stats.latencyMs);
  if (simulated) return [latency, NO_COST_SIMULATED];
  const tokens = stats.usage ? tokensText(stats.usage.input_tokens, stats.usage.output_tokens) : TOKENS_NOT_REPORTED;
  return [latency, tokens, formatCost(stats.costUsd)];
}

/** The final card's totals: cost, then tokens, as label and value. */
export function totalsParts(totals: UsageTotals): [label: string, value: string][] {
  if (totals.allSimulated) return [["Total cost", NO_COST_SIMULATED]];
  const tokens = totals.callsWithTokens > 0 ? tokensText(totals.inputTokens, totals.outputTokens) : TOKENS_NOT_REPORTED;
  return [
    ["Total cost", formatCost(totals.costUsd)],
    ["Tokens", tokens],
  ];
}
