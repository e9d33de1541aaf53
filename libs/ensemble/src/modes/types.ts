import type { Tally } from "../majority-vote";

/** A model on the panel of one decision. `weight` counts only in `weighted_voting`. */
export interface PanelMember {
  provider: string;
  /** Row label, used in explanations and in what peers and the judge are shown. */
  label: string;
  /** Non-negative; 0 is allowed (a model at or below chance under learned weights). */
  weight: number;
}

/** The judge model of `judge` mode. */
export interface JudgeMember {
  provider: string;
  label: string;
}

/**
 * One model's answer in one round, as the driver reports it. A valid answer has a category and no
 * error; a failed one has an error and no category. A category outside the request's categories is
 * turned into an error when the answer is accepted.
 */
export interface ModelAnswer {
  provider: string;
  round: number;
  category: string | null;
  /** 0 to 1; anything else is read as null (no confidence). */
  confidence: number | null;
  reason: string | null;
  error: string | null;
}

/** What a decision's ensemble is run with. Optional fields have the defaults below. */
export interface EnsembleContext {
  question: string;
  /** Allowed answers, in request order (the order breaks full ties). */
  categories: readonly string[];
  /** The models asked, in row order; at least one, each provider once. */
  panel: readonly PanelMember[];
  /** `gossip`: the most rounds, round 1 included. Default `DEFAULT_GOSSIP_ROUNDS`. */
  maxRounds?: number;
  /** `judge`: the judging model; required in that mode, ignored in the others. */
  judge?: JudgeMember | null;
  /**
   * `majority_voting` and `weighted_voting`: finish as soon as the answers still to come cannot
   * change the winner (`earlyQuorum`). Ignored by `judge` and `gossip`, which need every answer.
   */
  earlyQuorum?: boolean;
}

export const DEFAULT_GOSSIP_ROUNDS = 3;

/** The context with every default applied, as kept in a mode's state. */
export interface ResolvedContext {
  question: string;
  categories: string[];
  panel: PanelMember[];
  maxRounds: number;
  judge: JudgeMember | null;
  earlyQuorum: boolean;
}

/** A model's standing answer as another model (gossip) or the judge is shown it. */
export interface ShownAnswer {
  provider: string;
  label: string;
  /** The round the answer was given in. */
  round: number;
  category: string;
  confidence: number | null;
  reason: string | null;
}

/** A round's answer with its model's label, as the judge is shown it. */
export type LabelledAnswer = ModelAnswer & { label: string };

/** The judge's reply. A category outside the request's categories is a failed judge. */
export interface JudgeVerdict {
  category: string | null;
  reason: string | null;
  error: string | null;
}

export interface JudgeOutcome {
  provider: string;
  label: string;
  /** The judge's category when it is valid, else null. */
  category: string | null;
  reason: string | null;
  /** Why the judge failed (its error, or the category it gave outside the list); null when it decided. */
  error: string | null;
  /** True when the judge failed and the panel's majority vote decided instead. */
  fallback: boolean;
}

export interface EnsembleResult {
  /**
   * The count that decided. `final_decision` is the decision (the judge's category when the judge
   * decided); the other fields describe the counted votes.
   */
  tally: Tally;
  /** Every round's answers, round 1 first, each in panel order; a skipped model has none. */
  rounds: ModelAnswer[][];
  /**
   * One answer per model that was asked: the answer the tally counted (gossip: its last valid one),
   * or else its last failed one. In panel order. What a record's per-model columns show.
   */
  final_answers: ModelAnswer[];
  /** The weight each counted vote had, by provider (1 unless `weighted_voting`). */
  weights: Record<string, number>;
  /** Providers whose answers were not awaited because early quorum decided: their calls can be cancelled. */
  skipped: string[];
  judge: JudgeOutcome | null;
  /**
   * "Why this decision?", one short line per fact, joined with "\n": how the mode decided, then one
   * line per model. Null when there is no decision: the caller shows its no-decision text.
   */
  explanation: string | null;
}

/** What the driver must do next. */
export type EnsembleStep =
  /**
   * Ask these providers for round `round`. `peers` (gossip, empty in round 1): every model's standing
   * answer — its last valid one, `round` says from when — in panel order. Show a model the others'
   * as its peers' answers and its own as its previous answer.
   */
  | { kind: "ask"; round: number; providers: string[]; peers: ShownAnswer[] }
  /** Nothing new to do: these answers (or the judge's verdict) are still awaited. */
  | { kind: "wait"; round: number; pending: string[] }
  /**
   * Ask the judge: everything its prompt needs. `answers` holds every panel model's answer in panel
   * order, a failed one with category null and its error (at least one is valid, or no judge is asked).
   */
  | {
      kind: "judge";
      provider: string;
      label: string;
      question: string;
      categories: string[];
      answers: LabelledAnswer[];
    }
  /** The decision is made; `result.skipped` lists calls that may be cancelled. */
  | { kind: "final"; result: EnsembleResult };

export interface Transition<S> {
  state: S;
  step: EnsembleStep;
}

/**
 * One ensemble mode: a pure state machine. The state is plain JSON (it survives
 * `JSON.parse(JSON.stringify(state))`) because it waits in a queue job between steps, and it is
 * never mutated: each call returns a new state.
 *
 * Answers may be fed as they arrive, one or many at a time. An answer for another round, from a
 * provider not asked, or from one already answered or skipped is ignored, so a late or repeated
 * delivery never changes a tally. Once final, every call returns the same final step.
 */
export interface EnsembleMode<S> {
  start(ctx: EnsembleContext): Transition<S>;
  onAnswers(state: S, answers: readonly ModelAnswer[]): Transition<S>;
  /** Only modes with a judge step; the verdict is ignored unless the judge is awaited. */
  onJudge?(state: S, verdict: JudgeVerdict): Transition<S>;
}
