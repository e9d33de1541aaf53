import { DEFAULT_ENSEMBLE_MODE, type DecisionResponse, type EnsembleMode, type ProvidersResponse, type TokenUsage, type VoteEvent } from "@sd/contracts";
import type { Refusal } from "./refusal";

/** A model the playground can ask, as GET /api/providers lists it. */
export type ModelInfo = ProvidersResponse["providers"][number];

/**
 * Model result status, and what ensembles add: "idle" before the first
 * question, "waiting" for a judge whose panel is still voting, "skipped" for a vote early quorum
 * did not need (its call was cancelled), "unreported" for a judge whose verdict never came live
 * (the final decision holds it), "unasked" for a model the server never asked because it refused the
 * request (a rate limit, or busy).
 */
export type ModelStatus = "idle" | "waiting" | "pending" | "success" | "error" | "skipped" | "unreported" | "unasked";

/** What a settled vote's call took, as its live event said. */
export interface VoteStats {
  latencyMs: number;
  /** Tokens as the vendor reported them; null when it did not. */
  usage: TokenUsage | null;
  /** Their price in US dollars (0 when simulated). */
  costUsd: number;
}

/** A settled answer of an earlier gossip round. */
export interface RoundResult {
  round: number;
  status: "success" | "error" | "skipped";
  response: string | null;
  confidence: number | null;
  rationale: string | null;
  stats: VoteStats | null;
}

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
  /** The round this outcome belongs to: 1 unless gossip asked again; 0 for the judge. */
  round: number;
  /** The model's settled answers of earlier rounds, oldest first. */
  earlier: readonly RoundResult[];
  /** Settled from the HTTP answer, not by the model's own live event, which may still correct it. */
  guessed: boolean;
  /** The settled call's latency, tokens and cost, from its live event; null until then (or without live progress). */
  stats: VoteStats | null;
}

export interface DecisionRun {
  /** "refused": the server turned the request away before asking any model (see `refusal`). */
  phase: "idle" | "running" | "done" | "failed" | "refused";
  mode: EnsembleMode;
  /** The models asked, in row order. */
  panel: readonly string[];
  /** Per provider id, for the providers asked. */
  outcomes: Readonly<Record<string, ModelOutcome>>;
  /** Judge mode: the judge and its verdict; null otherwise. */
  judge: { provider: string; outcome: ModelOutcome } | null;
  result: DecisionResponse | null;
  /** Why and until when the server refused the request (phase "refused"); null otherwise. */
  refusal: Refusal | null;
}

export type VoteUpdate = Pick<
  VoteEvent,
  "provider" | "status" | "round" | "response" | "model_version" | "confidence" | "rationale" | "latency_ms" | "usage" | "cost_usd"
>;

export type DecisionRunAction =
  | { type: "start"; providers: readonly string[]; mode?: EnsembleMode; judge?: string | null }
  | { type: "vote"; event: VoteUpdate }
  | { type: "complete"; response: DecisionResponse }
  | { type: "fail" }
  | { type: "refuse"; refusal: Refusal };

export const IDLE_RUN: DecisionRun = { phase: "idle", mode: DEFAULT_ENSEMBLE_MODE, panel: [], outcomes: {}, judge: null, result: null, refusal: null };

const blank = { response: null, modelVersion: null, confidence: null, rationale: null, earlier: [], guessed: false, stats: null } as const;
const hasAnswer = (response: string | null | undefined): response is string => typeof response === "string" && response.trim() !== "";
const isOpen = (outcome: ModelOutcome | undefined) => outcome === undefined || outcome.status === "pending" || outcome.status === "waiting";

/** A settled event's call figures; null when it carries none (a pending event, or a server before they were sent). */
function statsOf(event: VoteUpdate): VoteStats | null {
  if (event.status === "pending" || event.latency_ms === undefined) return null;
  return { latencyMs: event.latency_ms, usage: event.usage ?? null, costUsd: event.cost_usd ?? 0 };
}

/** The outcome a live event reports, in `round`, after the `earlier` rounds. */
function outcomeOf(event: VoteUpdate, round: number, earlier: readonly RoundResult[]): ModelOutcome {
  const base = { ...blank, modelVersion: event.model_version, round, earlier, stats: statsOf(event) };
  if (event.status === "pending") return { ...base, status: "pending", stats: null };
  if (event.status === "skipped") return { ...base, status: "skipped" };
  if (event.status === "success" && hasAnswer(event.response)) {
    return { ...base, status: "success", response: event.response, confidence: event.confidence, rationale: hasAnswer(event.rationale) ? event.rationale.trim() : null };
  }
  return { ...base, status: "error" };
}

function roundResult(outcome: ModelOutcome): RoundResult | null {
  if (outcome.status !== "success" && outcome.status !== "error" && outcome.status !== "skipped") return null;
  const { round, status, response, confidence, rationale, stats } = outcome;
  return { round, status, response, confidence, rationale, stats };
}

/** One model's row after a live event: a later round moves the current answer into the history. */
function applyVote(current: ModelOutcome | undefined, event: VoteUpdate, round: number): ModelOutcome {
  if (!current) return outcomeOf(event, round, []);
  if (round < current.round) {
    // A late answer of an earlier round only fills in the history.
    const late = roundResult(outcomeOf(event, round, []));
    if (!late) return current;
    const earlier = [...current.earlier.filter((r) => r.round !== round), late].sort((a, b) => a.round - b.round);
    return { ...current, earlier };
  }
  if (round > current.round) {
    const settled = roundResult(current);
    const next = outcomeOf(event, round, settled ? [...current.earlier, settled] : current.earlier);
    // A later round's pending event names no model version: the row keeps the one it showed.
    return { ...next, modelVersion: next.modelVersion ?? current.modelVersion };
  }
  // A late "pending" never reopens a row its own event settled.
  if (event.status === "pending" && !isOpen(current) && !current.guessed) return current;
  return outcomeOf(event, round, current.earlier);
}

function judgeVote(run: DecisionRun, event: VoteUpdate): DecisionRun {
  const current = run.judge?.outcome;
  if (run.phase === "done" && current && !current.guessed) return run;
  if (event.status === "pending" && current && !isOpen(current) && !current.guessed) return run;
  return { ...run, judge: { provider: event.provider, outcome: outcomeOf(event, 0, []) } };
}

/**
 * One decision request's progress: every row pending on submit (a judge waits for its panel);
 * each row follows its model's live events (gossip: a later round's answer replaces the row's,
 * the earlier ones are kept; round 0 is the judge); rows still open when the HTTP answer comes
 * are settled from it (success when the model's answer is in individual_responses, else error),
 * though a live event arriving later still corrects them; every row fails when the request fails,
 * and an open row is "unasked" when the server refused the request (nothing was asked).
 */
export function decisionRunReducer(run: DecisionRun, action: DecisionRunAction): DecisionRun {
  switch (action.type) {
    case "start": {
      const judge = action.judge ? { provider: action.judge, outcome: { ...blank, status: "waiting" as const, round: 0 } } : null;
      return {
        phase: "running",
        mode: action.mode ?? DEFAULT_ENSEMBLE_MODE,
        panel: [...action.providers],
        result: null,
        refusal: null,
        judge,
        outcomes: Object.fromEntries(action.providers.map((id) => [id, { ...blank, status: "pending" as const, round: 1 }])),
      };
    }
    case "vote": {
      if (run.phase !== "running" && run.phase !== "done") return run;
      const { event } = action;
      const round = event.round ?? 1;
      if (round === 0) return judgeVote(run, event);
      const current = run.outcomes[event.provider];
      // After the answer, only a row the answer had to guess is corrected, and only by a settled event.
      if (run.phase === "done" && (!current?.guessed || event.status === "pending")) return run;
      return { ...run, outcomes: { ...run.outcomes, [event.provider]: applyVote(current, event, round) } };
    }
    case "complete": {
      const answers = action.response.individual_responses;
      const ids = new Set([...Object.keys(run.outcomes), ...Object.keys(answers)]);
      const outcomes: Record<string, ModelOutcome> = {};
      for (const id of ids) {
        const current = run.outcomes[id];
        const answer = answers[id];
        outcomes[id] = !isOpen(current)
          ? current!
          : {
              ...blank,
              status: hasAnswer(answer) ? "success" : "error",
              response: hasAnswer(answer) ? answer : null,
              modelVersion: current?.modelVersion ?? null,
              round: current?.round ?? 1,
              earlier: current?.earlier ?? [],
              guessed: true,
            };
      }
      const judge = run.judge && isOpen(run.judge.outcome) ? { ...run.judge, outcome: { ...run.judge.outcome, status: "unreported" as const, guessed: true } } : run.judge;
      return { ...run, phase: "done", result: action.response, outcomes, judge };
    }
    case "fail": {
      const failed = (o: ModelOutcome): ModelOutcome => ({ ...blank, status: "error", modelVersion: o.modelVersion, round: o.round, earlier: o.earlier });
      return {
        ...run,
        phase: "failed",
        result: null,
        outcomes: Object.fromEntries(Object.entries(run.outcomes).map(([id, o]) => [id, failed(o)])),
        judge: run.judge && { ...run.judge, outcome: failed(run.judge.outcome) },
      };
    }
    case "refuse": {
      // No model was asked: the open rows say so instead of failing; a row a live event settled keeps its answer.
      const unasked = (o: ModelOutcome): ModelOutcome => (isOpen(o) ? { ...blank, status: "unasked", modelVersion: o.modelVersion, round: o.round, earlier: o.earlier } : o);
      return {
        ...run,
        phase: "refused",
        result: null,
        refusal: action.refusal,
        outcomes: Object.fromEntries(Object.entries(run.outcomes).map(([id, o]) => [id, unasked(o)])),
        judge: run.judge && { ...run.judge, outcome: unasked(run.judge.outcome) },
      };
    }
  }
}
