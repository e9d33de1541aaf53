/**
 * @sd/ensemble: how a decision's votes become one decision. Pure: no I/O, no clock, no randomness.
 *
 * Driving a mode (the aggregator's part):
 *   let { state, step } = startEnsemble(mode, ctx);        // step: ask round 1
 *   loop on step.kind:
 *     "ask"   → enqueue one call per provider for `step.round` (gossip: show `step.peers`);
 *               feed each answer as it arrives: feedAnswers(state, [answer])
 *     "wait"  → nothing to do until another answer (or the judge's verdict) arrives
 *     "judge" → call the judge with the step's question, categories and answers;
 *               feed its reply: feedJudgeVerdict(state, verdict)
 *     "final" → write `step.result`; cancel the calls of `result.skipped` (early quorum)
 * Keep `state` in the queue job between calls: it is plain JSON. Late, repeated or unasked
 * answers are ignored, so a redelivered or cancelled call never changes a tally.
 *
 * Also: `majorityVote` (the tally and its tie policy), `earlyQuorum`, `logOddsWeight` (learned
 * weights), `quorumWeights` and `progressRound` (what the queue and live events need of a mode),
 * and `theory/` (exact accuracy and calls saved, for the accuracy lab).
 */
export * from "./majority-vote";
export * from "./explanation";
export * from "./early-quorum";
export * from "./weights";
export * from "./panel-calls";
export * from "./theory";
export * from "./modes/types";
export * from "./modes/registry";
export { majorityVoting } from "./modes/majority-voting";
export { weightedVoting } from "./modes/weighted-voting";
export { judgeMode, type JudgeState } from "./modes/judge";
export { gossipMode, type GossipState } from "./modes/gossip";
export type { VoteCountState } from "./modes/vote-count";
export type { RoundProgress } from "./modes/rounds";
