import { AggregateJobSchema, toDecisionResponse, toV1CompleteStatus, type AggregateJob, type DecisionResponse, type StoredDecision } from "@sd/contracts";
import { finalEvent, historyDecisionEvent, type LiveEvents } from "@sd/live";
import type { AggregateProcessor, ApiKeyUsage, FinishedVote, ImageStash, QuorumBoard, ThroughputRecorder, WebhookEvent } from "@sd/queue";
import type { Store } from "@sd/store";
import { decisionsTotal, type Logger } from "@sd/telemetry";
import { buildDecisionRecord } from "./decision-record";
import { runEnsemble, type EnsembleOutcome, type ProviderNames } from "./ensemble-driver";

export type { ProviderNames } from "./ensemble-driver";

/** The votes the live throughput figures count: each one a worker returned, but not those early quorum skipped. */
function finishedVotes({ calls, returned }: EnsembleOutcome): FinishedVote[] {
  const votes: FinishedVote[] = [];
  for (const [jobId, vote] of calls) {
    if (!returned.has(jobId) || vote.status === "skipped") continue;
    votes.push({ provider: vote.provider, voteId: `${jobId}:${vote.attempts}`, latencyMs: vote.latency_ms, ok: vote.status === "success" });
  }
  return votes;
}

export interface AggregateDeps {
  store: Store;
  images: ImageStash;
  live: LiveEvents;
  /** The live throughput figures: decisions written per second, and their votes. */
  throughput: ThroughputRecorder;
  names: ProviderNames;
  /** Early quorum's record of which votes a decision did not need. */
  board: QuorumBoard;
  /** Each API key's spend this month, which its monthly spend limit is checked against. */
  keyUsage: ApiKeyUsage;
  /** The owner's webhook endpoints (`WebhookDispatch`): told of each decision made by a user. */
  webhooks: { emit(event: WebhookEvent): Promise<void> };
  logger: Logger;
}

/** The `decision.completed` event of a user's decision; its id is stable per decision so receivers dedupe repeats. */
function decisionCompletedEvent(decision: StoredDecision & { user_id: string }): WebhookEvent {
  return {
    id: `evt_decision_${decision.id}`,
    type: "decision.completed",
    user_id: decision.user_id,
    api_key_id: decision.api_key_id,
    signed_in: decision.api_key_id === null,
    data: toV1CompleteStatus(decision),
    occurred_at: new Date(decision.timestamp),
  };
}

/**
 * Runs the decision's ensemble mode over its votes (asking for more rounds or the judge through
 * the flow when the mode needs them), then writes the decision exactly once: if this job is run
 * again (a crash after the write), the stored decision is kept and answered as it is. A signed-in
 * user's images (`user_id` set) are first stored once, as their image assets, and the decision
 * keeps the assets' ids; an anonymous decision keeps no image. Once the decision is written its
 * images leave Redis, and the owner's open dashboards are told. A key-made decision carries its
 * key's id and its cost; what the key has cost in all is summed from those decisions when asked
 * (`DecisionRepository.costByApiKey`); its spend this month, which its spend limit is checked
 * against before each decision, is a Redis counter the decision's cost is added to once.
 */
export function createAggregateProcessor({ store, images, live, throughput, names, board, keyUsage, webhooks, logger }: AggregateDeps): AggregateProcessor {
  /** The decision's image assets; idempotent per decision and label, so a rerun gets the same ids. */
  const saveImageAssets = async (data: AggregateJob, userId: string): Promise<string[]> => {
    if (data.images.length === 0) return [];
    const bytes = await images.read(data.images);
    const present = data.images.flatMap((ref, i) => {
      const image = bytes[i];
      return image == null ? [] : [{ label: ref.label, data: image }];
    });
    if (present.length < data.images.length) {
      // Gone from Redis: a rerun after the decision was written (its images were deleted then), or they expired.
      const written = await store.decisions.findById(data.decision_id);
      if (written) return written.images;
      logger.warn({ decision_id: data.decision_id, missing: data.images.length - present.length }, "some images expired before the decision was stored");
      if (present.length === 0) return [];
    }
    return store.imageAssets.saveForDecision({ decisionId: data.decision_id, userId, images: present, createdAt: new Date(data.received_at) });
  };

  return async (enqueued, run): Promise<DecisionResponse> => {
    const data = AggregateJobSchema.parse(enqueued);
    const outcome = await runEnsemble(run, data, { board, live, names });
    const assetIds = data.user_id === null ? [] : await saveImageAssets(data, data.user_id);
    const record = buildDecisionRecord(data, outcome, (p) => names.model(p), Date.now(), assetIds);
    const inserted = await store.decisions.insertOnce(record);
    const stored = inserted ? record : ((await store.decisions.findById(record.id)) ?? record);
    // Every vote is in and the assets hold what must be kept: the images have no reader left.
    await images.delete(data.images);
    const response = toDecisionResponse(stored);
    if (inserted) decisionsTotal.inc({ outcome: stored.final_decision === null ? "no_decision" : "decided" });
    // Counted once: a rerun of an already written decision is not counted again. Not awaited: the
    // figures never hold up the answer (a failure to record is reported by the recorder itself).
    if (inserted) void throughput.decisionWritten(finishedVotes(outcome));
    // Added once, by the run that stored it, before the outcome is published: a client that sees
    // the answer and calls again is checked against a spend that includes it. A crash between the
    // two writes loses this cost from the month's spend (the limit is then passed by it), never doubles it.
    if (inserted && stored.api_key_id !== null) await keyUsage.addSpend(stored.api_key_id, stored.cost_usd, stored.timestamp);
    if (data.request_id) live.final(finalEvent(data.request_id, response));
    if (stored.user_id !== null) live.historyDecision(stored.user_id, historyDecisionEvent(stored));
    // Not awaited: a receiver's queue never holds up or fails the decision. Emitted on a rerun too (at least once):
    // the job id per endpoint and event keeps a repeat from being delivered twice.
    if (stored.user_id !== null) {
      const event = decisionCompletedEvent({ ...stored, user_id: stored.user_id });
      webhooks.emit(event).catch((error: unknown) => logger.warn({ err: error, decision_id: stored.id }, "could not queue the decision's webhooks"));
    }
    logger.info(
      {
        decision_id: stored.id,
        final_decision: stored.final_decision,
        total_votes: stored.total_votes,
        processing_time_ms: stored.processing_time_ms,
        cost_usd: stored.cost_usd,
      },
      "decision finished",
    );
    return response;
  };
}
