import type { VoteJob, Vote } from "@sd/contracts";
import { earlyQuorum } from "@sd/ensemble";
import type { QuorumBoard } from "@sd/queue";
import type { RunningCalls } from "./running-calls";

/**
 * Early quorum on the worker's side. Each vote of an early-quorum decision posts its answer to the
 * decision's board; the worker whose answer makes the winner certain settles the decision, and the
 * votes still pending are cancelled wherever they run (their SDK call is aborted) or skipped
 * before they call their model. The decision then completes as soon as those jobs return.
 */
export class WorkerQuorum {
  constructor(
    private readonly board: QuorumBoard,
    private readonly calls: RunningCalls,
  ) {}

  async start(): Promise<void> {
    await this.board.listen((decisionId, provider) => this.calls.abort(decisionId, [provider], "not-needed"));
  }

  /** Whether the vote's decision was settled without it (then its model is not called). Only for early-quorum votes. */
  async isSkipped(job: VoteJob): Promise<boolean> {
    return (await this.board.skipped(job.decision_id))?.includes(job.provider) ?? false;
  }

  /** Posts a vote's answer and settles the decision if the answers still to come can no longer change the winner. */
  async report(job: VoteJob, vote: Vote): Promise<void> {
    const weights = job.quorum_weights;
    if (!weights || vote.status === "skipped") return;
    const board = await this.board.post(job.decision_id, { provider: vote.provider, category: vote.category, confidence: vote.confidence });
    if (board.skipped !== null) return;
    const answered = new Set(board.answers.map((a) => a.provider));
    const pending = Object.keys(weights).filter((provider) => !answered.has(provider));
    const verdict = earlyQuorum({ categories: job.categories, weights, answers: board.answers, pending });
    if (!verdict.decided || verdict.skippable.length === 0) return;
    const skipped = await this.board.settle(job.decision_id, verdict.skippable);
    // The board tells every worker process; the calls running here stop at once, without waiting for that message.
    this.calls.abort(job.decision_id, skipped, "not-needed");
  }

  async close(): Promise<void> {
    await this.board.close();
  }
}
