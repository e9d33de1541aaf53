import { gossipMode } from "./gossip";
import { judgeMode } from "./judge";
import { majorityVoting } from "./majority-voting";
import type { EnsembleContext, EnsembleMode, EnsembleStep, JudgeVerdict, ModelAnswer } from "./types";
import { weightedVoting } from "./weighted-voting";

/** Every ensemble mode by its id (the `ensemble_mode` of a request). A new mode: one module, one line here. */
export const ENSEMBLE_REGISTRY = {
  majority_voting: majorityVoting,
  weighted_voting: weightedVoting,
  judge: judgeMode,
  gossip: gossipMode,
} satisfies Record<string, EnsembleMode<unknown>>;

export type EnsembleModeId = keyof typeof ENSEMBLE_REGISTRY;

/** The mode ids, registry order first (`majority_voting`, the default). Typed as a non-empty tuple for `z.enum`. */
export const ENSEMBLE_MODES = Object.keys(ENSEMBLE_REGISTRY) as [EnsembleModeId, ...EnsembleModeId[]];

export function isEnsembleModeId(value: unknown): value is EnsembleModeId {
  return typeof value === "string" && Object.hasOwn(ENSEMBLE_REGISTRY, value);
}

type StateOf<K extends EnsembleModeId> = ReturnType<(typeof ENSEMBLE_REGISTRY)[K]["start"]>["state"];

/** A decision's ensemble in progress, tagged with its mode: plain JSON, kept in the queue job between steps. */
export type EnsembleState = { [K in EnsembleModeId]: { mode: K; state: StateOf<K> } }[EnsembleModeId];

export interface EnsembleTransition {
  state: EnsembleState;
  step: EnsembleStep;
}

/**
 * The registry's mode for a tagged state, typed loosely: TypeScript cannot follow that `run.mode`
 * and `run.state` belong to the same mode, which the `EnsembleState` union guarantees.
 */
function machineOf(mode: EnsembleModeId): EnsembleMode<unknown> {
  const machine = ENSEMBLE_REGISTRY[mode] as EnsembleMode<unknown> | undefined;
  if (!machine) throw new RangeError(`Unknown ensemble mode: ${String(mode)}`);
  return machine;
}

const tagged = (mode: EnsembleModeId, t: { state: unknown; step: EnsembleStep }): EnsembleTransition =>
  ({ state: { mode, state: t.state }, step: t.step }) as EnsembleTransition;

/** Starts a decision's ensemble in `mode`; the step says whom to ask first. */
export function startEnsemble(mode: EnsembleModeId, ctx: EnsembleContext): EnsembleTransition {
  return tagged(mode, machineOf(mode).start(ctx));
}

/** Feeds answers as they arrive (any number at a time); see `EnsembleMode` for what is ignored. */
export function feedAnswers(run: EnsembleState, answers: readonly ModelAnswer[]): EnsembleTransition {
  return tagged(run.mode, machineOf(run.mode).onAnswers(run.state, answers));
}

/** Feeds the judge's verdict. A mode without a judge step has never asked for one: a caller's bug. */
export function feedJudgeVerdict(run: EnsembleState, verdict: JudgeVerdict): EnsembleTransition {
  const machine = machineOf(run.mode);
  if (!machine.onJudge) throw new RangeError(`The ${run.mode} mode has no judge step.`);
  return tagged(run.mode, machine.onJudge(run.state, verdict));
}
