/** Why a running call was aborted: early quorum settled its decision without it, or the client went away. */
export type CancelReason = "not-needed" | "client-gone";

/** A model call in progress: `signal` fires (with a CancelReason) when it is no longer wanted. */
export interface CallTicket {
  signal: AbortSignal;
  leave(): void;
}

/** The model calls running in this process, by decision and provider, so a cancellation can abort them. */
export class RunningCalls {
  private readonly byDecision = new Map<string, Map<string, AbortController>>();

  enter(decisionId: string, provider: string): CallTicket {
    const controller = new AbortController();
    let calls = this.byDecision.get(decisionId);
    if (!calls) this.byDecision.set(decisionId, (calls = new Map()));
    calls.set(provider, controller);
    const leave = () => {
      if (calls.get(provider) !== controller) return;
      calls.delete(provider);
      if (calls.size === 0 && this.byDecision.get(decisionId) === calls) this.byDecision.delete(decisionId);
    };
    return { signal: controller.signal, leave };
  }

  /** Aborts the decision's calls of `providers` (every call of the decision when null). */
  abort(decisionId: string, providers: readonly string[] | null, reason: CancelReason): void {
    const calls = this.byDecision.get(decisionId);
    if (!calls) return;
    for (const [provider, controller] of calls) if (providers === null || providers.includes(provider)) controller.abort(reason);
  }
}
