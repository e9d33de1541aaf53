import { AggregateJobSchema, toDecisionResponse, type AggregateJob, type DecisionResponse, type Vote } from "@sd/contracts";
import type { Job, LiveEvents } from "@sd/queue";
import type { Store } from "@sd/store";
import { decisionsTotal, type Logger } from "@sd/telemetry";
import { buildDecisionRecord, collectVotes } from "./decision-record";

export interface ProviderNames {
  label(provider: string): string;
  model(provider: string): string;
}

/**
 * Tallies a decision once all its votes are in and writes it exactly once: if this job is run
 * again (a crash after the write), the stored decision is kept and answered as it is. For a
 * signed-in user (`user_id` set) the images are also stored as image assets, once.
 */
export function createAggregateProcessor(store: Store, events: LiveEvents, names: ProviderNames, logger: Logger) {
  return async (job: Job<AggregateJob, DecisionResponse>): Promise<DecisionResponse> => {
    const data = AggregateJobSchema.parse(job.data);
    const [values, failures] = await Promise.all([
      job.getChildrenValues<Vote>(),
      job.getIgnoredChildrenFailures(),
    ]);
    const votes = collectVotes(data, values, failures, (p) => names.model(p));
    const record = buildDecisionRecord(data, votes, (p) => names.label(p), Date.now());
    const inserted = await store.decisions.insertOnce(record);
    const stored = inserted ? record : ((await store.decisions.findById(record.id)) ?? record);
    // A signed-in user's images become their image assets, tied to the decision. Also on a rerun
    // after a crash between the two writes: the assets are idempotent per decision and label.
    if (data.user_id !== null && data.images.length > 0) {
      await store.imageAssets.saveForDecision({ decisionId: data.decision_id, userId: data.user_id, images: data.images, createdAt: stored.timestamp });
    }
    const response = toDecisionResponse(stored);
    if (inserted) decisionsTotal.inc({ outcome: stored.final_decision === null ? "no_decision" : "decided" });
    if (data.request_id) events.final({ ...response, request_id: data.request_id });
    logger.info(
      { decision_id: stored.id, final_decision: stored.final_decision, total_votes: stored.total_votes, processing_time_ms: stored.processing_time_ms },
      "decision finished",
    );
    return response;
  };
}
