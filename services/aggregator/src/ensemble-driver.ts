import { judgeJobId, roundJobId, voteWithoutAnswer, type AggregateJob, type Vote, type VoteJob } from "@sd/contracts";
import {
  feedAnswers,
  feedJudgeVerdict,
  progressRound,
  startEnsemble,
  type EnsembleResult,
  type EnsembleStep,
  type EnsembleTransition,
  type ModelAnswer,
} from "@sd/ensemble";
import { pendingProgress, type LiveEvents } from "@sd/live";
import type { AggregateRun, NextCall, QuorumBoard } from "@sd/queue";

export interface ProviderNames {
  label(provider: string): string;
  /** The model version a vote of this provider shows when it has none of its own (as a worker would write it). */
  model(provider: string): string;
}

/** Every call a decision made, by job id: the vote a worker returned, or an error vote for a job that failed for good. */
export type DecisionCalls = ReadonlyMap<string, Vote>;

export interface EnsembleOutcome {
  result: EnsembleResult;
  calls: DecisionCalls;
  /** Job ids of the calls whose worker returned a vote (the others failed for good: no latency to count). */
  returned: ReadonlySet<string>;
  /** Early quorum: the providers whose round-1 votes were not needed (their answers, if any came, are not counted). */
  skipped: string[];
}

export interface DriverDeps {
  board: QuorumBoard;
  live: LiveEvents;
  names: ProviderNames;
}

/** The most steps a decision can take: rounds (at most 5) plus a judge, with room; more means a bug, not a long decision. */
const MAX_STEPS = 12;

/**
 * Runs a decision's ensemble mode (libs/ensemble) over the calls its flow holds. The mode is a pure
 * state machine, so the aggregator replays it from the start each time the job runs: every answer
 * already in is fed again, and the first step whose calls are missing adds them to the flow and
 * parks the job until they are in (a gossip round, the judge). A crash between steps loses nothing
 * and asks nothing twice (job ids derive from decision, provider and round). Returns once the mode
 * is final.
 */
export async function runEnsemble(run: AggregateRun, data: AggregateJob, deps: DriverDeps): Promise<EnsembleOutcome> {
  for (;;) {
    // Read together: the job runs once its calls are finished, so a settlement that skipped any is already recorded.
    const [{ calls, returned }, skipped] = await Promise.all([
      readCalls(run, data, deps.names),
      data.early_quorum ? deps.board.skipped(data.decision_id).then((providers) => providers ?? []) : [],
    ]);
    const outcome = replay(data, calls, skipped, deps.names);
    if ("result" in outcome) return { result: outcome.result, calls, returned, skipped };
    for (const call of outcome.next) announce(deps.live, data, call.data);
    // Throws (the job is parked) unless the calls finished already; then replay with their answers.
    await run.askMore(outcome.next);
  }
}

/** The mode fed with every answer in `calls`: its result, or the calls it needs next. */
function replay(data: AggregateJob, calls: DecisionCalls, skipped: readonly string[], names: ProviderNames): { result: EnsembleResult } | { next: NextCall[] } {
  let run: EnsembleTransition = startEnsemble(data.ensemble_mode, {
    question: data.question,
    categories: data.categories,
    panel: data.providers.map((provider) => ({ provider, label: names.label(provider), weight: data.weights?.[provider] ?? 1 })),
    maxRounds: data.max_rounds,
    judge: data.judge_provider ? { provider: data.judge_provider, label: names.label(data.judge_provider) } : null,
    earlyQuorum: data.early_quorum ?? false,
  });
  for (let steps = 0; steps < MAX_STEPS; steps++) {
    const step: EnsembleStep = run.step;
    switch (step.kind) {
      case "final":
        return { result: step.result };
      case "ask": {
        const missing = step.providers.filter((provider) => !calls.has(roundJobId(data.decision_id, provider, step.round)));
        if (missing.length > 0) return { next: missing.map((provider) => voteCall(data, provider, step)) };
        // Early quorum settled the decision without the skipped votes: whatever they returned is never counted.
        const counted = step.providers.filter((provider) => !skipped.includes(provider));
        run = feedAnswers(run.state, counted.map((provider) => answerOf(calls.get(roundJobId(data.decision_id, provider, step.round))!, step.round)));
        break;
      }
      case "wait":
        // Only skipped votes can be awaited here; if the mode still wants them, they count as failed.
        run = feedAnswers(
          run.state,
          step.pending.map((provider) => ({ provider, round: step.round, category: null, confidence: null, reason: null, error: "not needed: early quorum decided without it" })),
        );
        break;
      case "judge": {
        const verdict = calls.get(judgeJobId(data.decision_id, step.provider));
        if (!verdict) return { next: [judgeCall(data, step)] };
        run = feedJudgeVerdict(run.state, {
          category: verdict.status === "success" ? verdict.category : null,
          reason: verdict.rationale,
          error: verdict.status === "success" ? null : (verdict.error ?? "the judge gave no verdict"),
        });
        break;
      }
    }
  }
  throw new Error(`decision ${data.decision_id}: its ${data.ensemble_mode} ensemble did not finish in ${MAX_STEPS} steps`);
}

/** A vote as the mode reads it: a valid answer, or a failure with its error. */
function answerOf(vote: Vote, round: number): ModelAnswer {
  const valid = vote.status === "success" && vote.category !== null;
  return {
    provider: vote.provider,
    round,
    category: valid ? vote.category : null,
    confidence: vote.confidence,
    reason: vote.rationale,
    error: valid ? null : (vote.error ?? "No vote was received from this model."),
  };
}

/** How long each later call may take: the same window the first round had. */
function callDeadline(data: AggregateJob): number | undefined {
  return data.vote_deadline_at === undefined ? undefined : Date.now() + (data.vote_deadline_at - data.received_at);
}

function voteCall(data: AggregateJob, provider: string, step: Extract<EnsembleStep, { kind: "ask" }>): NextCall {
  const base = callBase(data, provider);
  return {
    jobId: roundJobId(data.decision_id, provider, step.round),
    data: {
      ...base,
      round: step.round,
      peers: step.peers.filter((peer) => peer.provider !== provider),
      previous: step.peers.find((peer) => peer.provider === provider) ?? null,
    },
  };
}

function judgeCall(data: AggregateJob, step: Extract<EnsembleStep, { kind: "judge" }>): NextCall {
  return {
    jobId: judgeJobId(data.decision_id, step.provider),
    data: {
      ...callBase(data, step.provider),
      task: "judge",
      panel_answers: step.answers.map(({ provider, label, category, confidence, reason, error }) => ({ provider, label, category, confidence, reason, error })),
    },
  };
}

function callBase(data: AggregateJob, provider: string): VoteJob {
  const deadline = callDeadline(data);
  return {
    decision_id: data.decision_id,
    request_id: data.request_id,
    provider,
    question: data.question,
    categories: data.categories,
    images: data.images,
    ...(deadline === undefined ? {} : { vote_deadline_at: deadline }),
  };
}

/** The new calls' rows turn pending in the request's room. */
function announce(live: LiveEvents, data: AggregateJob, call: VoteJob): void {
  if (!data.request_id) return;
  live.modelProgress(pendingProgress({ request_id: data.request_id, decision_id: data.decision_id }, call.provider, progressRound(call.task, call.round ?? 1)));
}

/**
 * Every call of the decision by job id: what each job returned, or an error vote for one that
 * failed for good (e.g. its worker crashed too often); and which of them a worker returned.
 */
async function readCalls(run: AggregateRun, data: AggregateJob, names: ProviderNames): Promise<{ calls: DecisionCalls; returned: ReadonlySet<string> }> {
  const { returned, failed } = await run.finishedCalls();
  const calls = new Map<string, Vote>();
  for (const [jobId, reason] of failed) {
    const provider = providerOfJob(data, jobId);
    calls.set(jobId, voteWithoutAnswer({ provider, status: "error", error: reason, model_version: names.model(provider) }));
  }
  for (const [jobId, vote] of returned) calls.set(jobId, vote);
  return { calls, returned: new Set(returned.keys()) };
}

/** The provider a job id of this decision belongs to (ids may share a prefix: gemini, geminipro). */
function providerOfJob(data: AggregateJob, jobId: string): string {
  const candidates = [...data.providers, ...(data.judge_provider ? [data.judge_provider] : [])];
  const rounds = Array.from({ length: Math.max(1, data.max_rounds ?? 1) }, (_, i) => i + 1);
  return (
    candidates.find((p) => jobId === judgeJobId(data.decision_id, p) || rounds.some((round) => jobId === roundJobId(data.decision_id, p, round))) ??
    "unknown"
  );
}
