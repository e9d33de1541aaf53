import { VoteJobSchema, type TokenUsage, type Vote, type VoteJob } from "@sd/contracts";
import { costUsd } from "@sd/config";
import { voteProgress, type LiveEvents } from "@sd/live";
import { asProviderError, configuredModelVersion, type ModelProvider } from "@sd/providers";
import { ImageExpiredError, type ImageStash, type Job, type ThroughputRecorder } from "@sd/queue";
import { voteDuration, voteErrors, type Logger } from "@sd/telemetry";

/**
 * Asks one model for its vote. The decision's images are read by reference right before the
 * call (a missing one is an error vote: the decision waited longer than the images live). A
 * retryable failure (429, 5xx, timeout, network) is thrown while attempts remain, so BullMQ retries
 * it with backoff; on the last attempt, and for any failure that retrying cannot fix, the vote is
 * returned as an error: a failed model never blocks the decision.
 *
 * Each vote carries the tokens its call used and their price (see `costUsd`). An answer that
 * could not be used was still billed, so its error vote carries them too; the failures BullMQ
 * retries (429, 5xx, timeouts) got no answer, so no attempt before the last has tokens to add.
 *
 * Each final vote's latency and outcome go to the live throughput figures (the admin room).
 */
export function createVoteProcessor(
  provider: ModelProvider,
  images: ImageStash,
  live: LiveEvents,
  throughput: ThroughputRecorder,
  logger: Logger,
) {
  const { id, weight } = provider.config;
  return async (job: Job<VoteJob, Vote>): Promise<Vote> => {
    const data = VoteJobSchema.parse(job.data);
    const attempt = job.attemptsMade + 1;
    let started = performance.now();
    const elapsed = () => performance.now() - started;
    const failed = (error: string, raw: string | null, usage: TokenUsage | null): Vote => ({
      provider: id,
      status: "error",
      category: null,
      rationale: null,
      confidence: null,
      raw_response: raw,
      model_version: configuredModelVersion(provider.config),
      error,
      weight,
      latency_ms: Math.round(elapsed()),
      attempts: attempt,
      usage,
      cost_usd: costUsd(provider.config, usage),
    });
    const ask = async (pictures: string[]): Promise<Vote> => {
      started = performance.now(); // the model's latency, not Redis's
      try {
        const answer = await provider.vote({ question: data.question, categories: data.categories, images: pictures });
        voteDuration.observe({ provider: id, outcome: "success" }, elapsed() / 1000);
        return {
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
          usage: answer.usage,
          cost_usd: costUsd(provider.config, answer.usage),
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
        return failed(error.message, error.raw, error.usage);
      }
    };
    const vote = await images.readAll(data.images).then(
      (pictures) => ask(pictures),
      (error: unknown) => {
        // Retrying cannot bring an expired image back; any other failure to read (Redis down) is retried by BullMQ.
        if (!(error instanceof ImageExpiredError)) throw error;
        voteErrors.inc({ provider: id, kind: "image_expired" });
        logger.warn({ provider: id, decision_id: data.decision_id, images: error.labels }, "vote impossible: images expired");
        return failed(error.message, null, null);
      },
    );
    if (data.request_id) live.modelProgress(voteProgress({ request_id: data.request_id, decision_id: data.decision_id }, vote));
    await throughput.voteFinished(id, `${job.id ?? data.decision_id}:${attempt}`, vote.latency_ms, vote.status === "success");
    return vote;
  };
}
