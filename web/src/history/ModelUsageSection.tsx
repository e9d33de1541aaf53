import type { DecisionHistoryItem } from "@sd/contracts";
import { NO_COST_SIMULATED, TOKENS_NOT_REPORTED, tokensText } from "../playground/usage-text";
import { formatCost } from "../settings/format";
import { DetailSection } from "./DetailSection";
import { formatProcessingTime, modelName, modelUsage } from "./format";

function Figure({ term, value }: { term: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="mt-0.5 text-sm text-slate-800 tabular-nums">{value}</dd>
    </div>
  );
}

/**
 * Cost, tokens and latency: per model, what its calls used, took and cost, and the decision's total
 * cost. A simulated model says it cost nothing rather than showing the simulator's token estimates.
 */
export function ModelUsageSection({ decision, labels }: { decision: DecisionHistoryItem; labels: ReadonlyMap<string, string> }) {
  const rows = modelUsage(decision);
  const allSimulated = rows.length > 0 && rows.every((row) => row.simulated);
  // Decisions stored before latencies were kept have none at all; otherwise a missing one was never awaited (early quorum).
  const noLatency = Object.keys(decision.model_latencies_ms).length === 0 ? "Not recorded" : "Not awaited";
  return (
    <DetailSection title="Cost, tokens and latency">
      <p className="mb-3 text-sm text-slate-800">
        <span className="font-semibold">Total cost:</span> <span data-testid="total-cost">{allSimulated ? NO_COST_SIMULATED : formatCost(decision.cost_usd)}</span>
      </p>
      <ul className="grid gap-3 sm:grid-cols-2" aria-label="Usage per model">
        {rows.map((row) => {
          const name = modelName(row.id, labels);
          return (
            <li key={row.id} aria-label={name} className="rounded-lg border border-slate-200 p-3">
              <h3 className="mb-2 font-semibold text-slate-900 [overflow-wrap:anywhere]">{name}</h3>
              <dl className="grid grid-cols-2 gap-2">
                <Figure term="Latency" value={row.latencyMs === null ? noLatency : formatProcessingTime(row.latencyMs)} />
                <Figure term="Cost" value={row.simulated ? NO_COST_SIMULATED : formatCost(row.costUsd)} />
                {row.simulated ? null : <Figure term="Tokens" value={row.tokens ? tokensText(row.tokens.input, row.tokens.output) : TOKENS_NOT_REPORTED} />}
              </dl>
            </li>
          );
        })}
      </ul>
    </DetailSection>
  );
}
