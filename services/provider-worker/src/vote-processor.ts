import { VoteJobSchema, type Vote, type VoteJob } from "@sd/contracts";
import { asProviderError, configuredModelVersion, type ModelProvider } from "@sd/providers";
import { voteDuration, voteErrors, type Logger } from "@sd/telemetry";
import type { Job, LiveEvents } from "@sd/queue";

/**
 * Asks one model for its vote. A retryable failure (429, 5xx, timeout, network) is thrown while
 * attempts remain, so BullMQ retries it with backoff; on the last attempt, and for any failure
 * that retrying cannot fix, the vote is returned as an error: a failed model never blocks the decision.
 */
export function createVoteProcessor(provider: ModelProvider, events: LiveEvents, logger: Logger) {
  const { id, weight } = provider.config;
  return async (job: Job<VoteJob, Vote>): Promise<Vote> => {
    const data = VoteJobSchema.parse(job.data);
    const attempt = job.attemptsMade + 1;
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    let vote: Vote;
    try {
      const answer = await provider.vote({ question: data.question, categories: data.categories, images: data.images });
      voteDuration.observe({ provider: id, outcome: "success" }, elapsed() / 1000);
      vote = {
        provider: id,
        status: "success",
        category: answer.category,
        rationale: answer.rationale,
        confidence: answer.confidence,
        raw_response: answer.raw,
        model_version: answer.modelVersion,
        error: null,
        weight,
        latency_ms: Math.round(elapsed()),
        attempts: attempt,
      };
    } catch (caught) {
      const error = asProviderError(caught);
      voteDuration.observe({ provider: id, outcome: "error" }, elapsed() / 1000);
      voteErrors.inc({ provider: id, kind: error.kind });
      const attemptsLeft = attempt < (job.opts.attempts ?? 1);
      if (error.retryable && attemptsLeft) {
        logger.warn({ provider: id, decision_id: data.decision_id, attempt, kind: error.kind }, "vote failed, will retry");
        throw error;
      }
      logger.warn({ provider: id, decision_id: data.decision_id, attempt, kind: error.kind, err: error.message }, "vote failed");
      vote = {
        provider: id,
        status: "error",
        category: null,
        rationale: null,
        confidence: null,
        raw_response: error.raw,
        model_version: configuredModelVersion(provider.config),
        error: error.message,
        weight,
        latency_ms: Math.round(elapsed()),
        attempts: attempt,
      };
    }
    if (data.request_id) {
      events.vote({
        request_id: data.request_id,
        decision_id: data.decision_id,
        provider: id,
        status: vote.status,
        response: vote.category,
        confidence: vote.confidence,
        model_version: vote.model_version,
        error: vote.error,
      });
    }
    return vote;
  };
}
