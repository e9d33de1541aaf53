import type { VoteJob, Vote } from "@sd/contracts";
import { earlyQuorum } from "@sd/ensemble";
import type { QuorumBoard } from "@sd/queue";

/** A vote in progress under early quorum: `signal` fires if the decision is settled without it. */
export interface QuorumTicket {
  signal: AbortSignal;
  leave(): void;
}

/**
 * Early quorum on the worker's side. Each vote of an early-quorum decision posts its answer to the
 * decision's board; the worker whose answer makes the winner certain settles the decision, and the
 * votes still pending are cancelled wherever they run (their SDK call is aborted) or skipped
 * before they call their model. The decision then completes as soon as those jobs return.
 */
export class WorkerQuorum {
  /** Calls in progress by decision and provider, to abort when the decision is settled without them. */
  private readonly calls = new Map<string, AbortController>();

  constructor(private readonly board: QuorumBoard) {}

  async start(): Promise<void> {
    await this.board.listen((decisionId, provider) => this.cancel(decisionId, [provider]));
  }

  /** Null when the vote is not needed any more; else a ticket whose signal cancels the call. Only for early-quorum votes. */
  async enter(job: VoteJob): Promise<QuorumTicket | null> {
    const id = key(job.decision_id, job.provider);
    const controller = new AbortController();
    // Registered before the check: a cancel published in between is not missed.
    this.calls.set(id, controller);
    const leave = () => {
      if (this.calls.get(id) === controller) this.calls.delete(id);
    };
    const skipped = await this.board.skipped(job.decision_id);
    if (skipped?.includes(job.provider)) {
      leave();
      return null;
    }
    return { signal: controller.signal, leave };
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
    this.cancel(job.decision_id, skipped);
  }

  private cancel(decisionId: string, providers: readonly string[]): void {
    for (const provider of providers) this.calls.get(key(decisionId, provider))?.abort();
  }

  async close(): Promise<void> {
    await this.board.close();
  }
}

const key = (decisionId: string, provider: string) => `${decisionId}\u0000${provider}`;
