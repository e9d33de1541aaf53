import type { DecisionResponse, ProvidersResponse, VoteEvent } from "@sd/contracts";

/** A model the playground asks, as GET /api/providers lists it. */
export type ModelInfo = ProvidersResponse["providers"][number];

/** Model result status (specification section 4); "idle" before the first question. */
export type ModelStatus = "idle" | "pending" | "success" | "error";

export interface ModelOutcome {
  status: Exclude<ModelStatus, "idle">;
  /** The category the model chose (success only). */
  response: string | null;
  /** The model that actually answered, when the live event said. */
  modelVersion: string | null;
  /** How sure the model was, 0 to 1 (success only, from its live event). */
  confidence: number | null;
  /** The model's one-sentence reason (success only, from its live event). */
  rationale: string | null;
}

/** Model result row: model label, response, status (specification section 3). */
export interface ModelRow extends Omit<ModelOutcome, "status"> {
  id: string;
  label: string;
  status: ModelStatus;
}

export interface DecisionRun {
  phase: "idle" | "running" | "done" | "failed";
  /** Per provider id, for the providers asked. */
  outcomes: Readonly<Record<string, ModelOutcome>>;
  result: DecisionResponse | null;
}

export type DecisionRunAction =
  | { type: "start"; providers: readonly string[] }
  | { type: "vote"; event: Pick<VoteEvent, "provider" | "status" | "response" | "model_version" | "confidence" | "rationale"> }
  | { type: "complete"; response: DecisionResponse }
  | { type: "fail" };

export const IDLE_RUN: DecisionRun = { phase: "idle", outcomes: {}, result: null };

const pending: ModelOutcome = { status: "pending", response: null, modelVersion: null, confidence: null, rationale: null };
/** A row settled without the model's own answer (so without its confidence or reason). */
const settled = (status: "success" | "error", response: string | null, modelVersion: string | null): ModelOutcome => ({
  status,
  response,
  modelVersion,
  confidence: null,
  rationale: null,
});
const hasAnswer = (response: string | null | undefined): response is string => typeof response === "string" && response.trim() !== "";

/**
 * One decision request's progress: every row pending on submit, each settled by its live vote
 * event as it arrives (with the model's confidence and reason), rows still pending settled by the
 * HTTP answer (success when the model's answer is in individual_responses, else error; the answer
 * carries no confidence or reason), and every row failed when the request fails.
 */
export function decisionRunReducer(run: DecisionRun, action: DecisionRunAction): DecisionRun {
  switch (action.type) {
    case "start":
      return { phase: "running", result: null, outcomes: Object.fromEntries(action.providers.map((id) => [id, pending])) };
    case "vote": {
      if (run.phase !== "running") return run;
      const { provider, status, response, model_version, confidence, rationale } = action.event;
      const current = run.outcomes[provider];
      // A late "pending" never reopens a settled row.
      if (status === "pending" && current && current.status !== "pending") return run;
      const outcome: ModelOutcome =
        status === "pending"
          ? { ...pending, modelVersion: model_version }
          : status === "success" && hasAnswer(response)
            ? { status: "success", response, modelVersion: model_version, confidence, rationale: hasAnswer(rationale) ? rationale.trim() : null }
            : settled("error", null, model_version);
      return { ...run, outcomes: { ...run.outcomes, [provider]: outcome } };
    }
    case "complete": {
      const answers = action.response.individual_responses;
      const ids = new Set([...Object.keys(run.outcomes), ...Object.keys(answers)]);
      const outcomes: Record<string, ModelOutcome> = {};
      for (const id of ids) {
        const current = run.outcomes[id];
        const answer = answers[id];
        outcomes[id] =
          current && current.status !== "pending"
            ? current
            : settled(hasAnswer(answer) ? "success" : "error", hasAnswer(answer) ? answer : null, current?.modelVersion ?? null);
      }
      return { phase: "done", result: action.response, outcomes };
    }
    case "fail":
      return {
        phase: "failed",
        result: null,
        outcomes: Object.fromEntries(
          Object.entries(run.outcomes).map(([id, o]) => [id, settled("error", null, o.modelVersion)]),
        ),
      };
  }
}

/** The rows to show: one per listed model, in order, then any other model that answered. */
export function modelRows(models: readonly ModelInfo[], outcomes: Readonly<Record<string, ModelOutcome>>): ModelRow[] {
  const listed = new Set(models.map((m) => m.id));
  const rows: ModelRow[] = models.map(({ id, label }) => ({
    id,
    label,
    ...(outcomes[id] ?? { status: "idle" as const, response: null, modelVersion: null, confidence: null, rationale: null }),
  }));
  for (const [id, outcome] of Object.entries(outcomes)) {
    if (!listed.has(id)) rows.push({ id, label: id, ...outcome });
  }
  return rows;
}
