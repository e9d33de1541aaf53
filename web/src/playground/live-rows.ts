import type { EnsembleMode } from "@sd/contracts";
import type { DecisionRun, ModelInfo, ModelOutcome, ModelStatus, RoundResult, VoteStats } from "./decision-run";

/** Model result row: model label, response, status, and what ensembles add. */
export interface ModelRow {
  /** Unique among the rows (the judge's differs from the same model's panel row). */
  key: string;
  id: string;
  kind: "model" | "judge";
  label: string;
  status: ModelStatus;
  response: string | null;
  modelVersion: string | null;
  confidence: number | null;
  rationale: string | null;
  /** Gossip: the round the row's answer belongs to ("Round N"); null in the other modes. */
  round: number | null;
  /** Gossip: the model's answers of earlier rounds, oldest first. */
  earlier: readonly RoundResult[];
  /** The settled call's latency, tokens and cost; null until its live event says. */
  stats: VoteStats | null;
  /** Answered by the simulator: no cost, and its token counts are estimates, not a vendor's. */
  simulated: boolean;
}

/** What the controls say the next decision will ask, shown before the first question. */
export interface RowPreview {
  panel: readonly ModelInfo[];
  mode: EnsembleMode;
  /** Judge mode: the judge's id; else null. */
  judge: string | null;
}

export const judgeLabel = (label: string) => `Judge: ${label}`;

const IDLE: Omit<ModelRow, "key" | "id" | "kind" | "label" | "simulated"> = {
  status: "idle",
  response: null,
  modelVersion: null,
  confidence: null,
  rationale: null,
  round: null,
  earlier: [],
  stats: null,
};

function row(id: string, kind: ModelRow["kind"], label: string, outcome: ModelOutcome, gossip: boolean, simulated: boolean): ModelRow {
  const { status, response, modelVersion, confidence, rationale, round, earlier, stats } = outcome;
  return { key: `${kind}:${id}`, id, kind, label, status, response, modelVersion, confidence, rationale, round: gossip ? round : null, earlier, stats, simulated };
}

/**
 * The playground's rows. Before the first question: one idle row per model the controls have
 * chosen, in panel order, and the judge's row in judge mode. Once asked: one row per model the
 * request asked, in its order, then any other model the answer named (under its id), then the judge.
 */
export function liveRows(models: readonly ModelInfo[], run: DecisionRun, preview: RowPreview): ModelRow[] {
  const labels = new Map(models.map((model) => [model.id, model.label]));
  const labelOf = (id: string) => labels.get(id) ?? id;
  const simulated = new Set(models.filter((model) => model.simulated).map((model) => model.id));
  if (run.phase === "idle") {
    const rows: ModelRow[] = preview.panel.map(({ id, label }) => ({ ...IDLE, key: `model:${id}`, id, kind: "model", label, simulated: simulated.has(id) }));
    if (preview.mode === "judge" && preview.judge) {
      rows.push({ ...IDLE, key: `judge:${preview.judge}`, id: preview.judge, kind: "judge", label: judgeLabel(labelOf(preview.judge)), simulated: simulated.has(preview.judge) });
    }
    return rows;
  }
  const gossip = run.mode === "gossip";
  const ids = [...run.panel, ...Object.keys(run.outcomes).filter((id) => !run.panel.includes(id))];
  const rows = ids.flatMap((id) => {
    const outcome = run.outcomes[id];
    return outcome ? [row(id, "model", labelOf(id), outcome, gossip, simulated.has(id))] : [];
  });
  if (run.judge) {
    const { provider, outcome } = run.judge;
    rows.push(row(provider, "judge", judgeLabel(labelOf(provider)), outcome, false, simulated.has(provider)));
  }
  return rows;
}
