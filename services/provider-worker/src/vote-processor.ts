import { VoteJobSchema, voteWithoutAnswer, type TokenUsage, type Vote, type VoteJob } from "@sd/contracts";
import { costUsd } from "@sd/config";
import { progressRound } from "@sd/ensemble";
import { voteProgress, type LiveEvents } from "@sd/live";
import { asProviderError, configuredModelVersion, type ModelProvider } from "@sd/providers";
import {
  ImageExpiredError,
  QueueRateLimited,
  type TokenBudget,
  VOTE_BACKOFF_TYPE,
  VOTE_CANCELLED_ERROR,
  VOTE_DEADLINE_ERRORS,
  type CallCancels,
  VoteRetry,
  msUntilDeadline,
  type ImageStash,
  type JobAttempt,
  type VoteProcessor,
  type voteBackoff,
} from "@sd/queue";
import { voteDuration, voteErrors, type Logger } from "@sd/telemetry";
import type { WorkerQuorum } from "./early-quorum";
import type { CancelReason, RunningCalls } from "./running-calls";

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
 * Each final vote's latency and outcome reach the live throughput figures (the admin room) with
 * its decision: the aggregator records them when it writes the decision.
 *
 * A vote has a total deadline, stamped by the gateway in the job (`vote_deadline_at`): each
 * attempt is cut when it comes, and a retry that would start after it (a long Retry-After, or
 * backoff after a timeout) is not made; the vote is recorded as an error at once, so the decision
 * is made from the other models instead of waiting for this one.
 *
 * A 429 with Retry-After is the vendor limiting the key, not this vote: it pauses the provider's
 * queue for every worker (`QueueRateLimited`), and the job waits out the pause without using an
 * attempt, instead of each job retrying on its own into more 429s.
 */
export function createVoteProcessor(
  provider: ModelProvider,
  images: ImageStash,
  live: LiveEvents,
  logger: Logger,
  /** The worker's backoff (`voteBackoff`), to plan each retry against the deadline. */
  backoff: ReturnType<typeof voteBackoff>,
  /** Early quorum: skips or cancels a vote once its decision is settled without it. */
  quorum: WorkerQuorum,
  /** The provider's tokens per minute (`<ID>_TPM`), shared with every worker; unused without a limit. */
  tokenBudget: TokenBudget,
  /** The calls running here, which early quorum and a client that went away abort. */
  calls: RunningCalls,
  /** Decisions whose client went away: their votes not yet asked are not asked. */
  cancels: CallCancels,
): VoteProcessor {
  const { id, weight, tpm } = provider.config;
  /** One call to the model: a vote (with its peers' answers in a gossip round) or, for a judge job, the verdict. */
  const callModel = (data: VoteJob, pictures: string[], signal: AbortSignal | undefined) => {
    const base = { question: data.question, categories: data.categories, images: pictures };
    if (data.task === "judge") {
      const answers = (data.panel_answers ?? []).map(({ label, category, reason, confidence }) => ({ label, category, reason, confidence }));
      return provider.judge({ ...base, answers }, signal);
    }
    const round = data.round ?? 1;
    if (round === 1) return provider.vote(base, signal);
    return provider.vote(
      {
        ...base,
        round,
        peers: (data.peers ?? []).map(({ label, category, reason }) => ({ label, category, reason })),
        previous: data.previous ? { category: data.previous.category, reason: data.previous.reason } : null,
      },
      signal,
    );
  };
  return async (enqueued, attempts): Promise<Vote> => {
    const data = VoteJobSchema.parse(enqueued);
    const round = data.task === "judge" ? undefined : (data.round ?? 1);
    // Registered before the checks, so a cancellation published in between still aborts the call.
    const call = calls.enter(data.decision_id, data.provider);
    try {
      const [clientGone, notNeeded] = await Promise.all([cancels.isCancelled(data.decision_id), data.quorum_weights ? quorum.isSkipped(data) : false]);
      if (clientGone) return await finish(data, cancelledVote(round, 0, 1, null));
      // Early quorum: a vote whose decision was settled without it calls no model.
      if (notNeeded) return await finish(data, skippedVote(0));
      return await finish(data, await run(attempts, data, round, call.signal));
    } finally {
      call.leave();
    }
  };

  /** A vote whose client went away: an error, so the decision completes from the votes that were in. */
  function cancelledVote(round: number | undefined, latencyMs: number, attempts: number, usage: TokenUsage | null): Vote {
    return voteWithoutAnswer({
      provider: id,
      status: "error",
      error: VOTE_CANCELLED_ERROR,
      model_version: configuredModelVersion(provider.config),
      weight,
      latency_ms: Math.round(latencyMs),
      attempts,
      usage,
      cost_usd: costUsd(provider.config, usage),
      ...(round === undefined ? {} : { round }),
    });
  }

  /** A vote early quorum did not need: not asked, or its call cancelled. Never counted. */
  function skippedVote(latencyMs: number, attempts = 1): Vote {
    return voteWithoutAnswer({ provider: id, status: "skipped", model_version: configuredModelVersion(provider.config), weight, latency_ms: Math.round(latencyMs), attempts });
  }

  /** Tells the room and early quorum about a final vote. */
  async function finish(data: VoteJob, vote: Vote): Promise<Vote> {
    if (data.request_id) {
      const event = voteProgress({ request_id: data.request_id, decision_id: data.decision_id }, vote);
      live.modelProgress({ ...event, round: progressRound(data.task, event.round ?? 1) });
    }
    await quorum.report(data, vote);
    return vote;
  }

  async function run(attempts: JobAttempt, data: VoteJob, round: number | undefined, cancelled: AbortSignal | undefined): Promise<Vote> {
    const attempt = attempts.number;
    let started = performance.now();
    const elapsed = () => performance.now() - started;
    const failed = (error: string, raw: string | null, usage: TokenUsage | null): Vote =>
      voteWithoutAnswer({
        provider: id,
        status: "error",
        error,
        raw_response: raw,
        model_version: configuredModelVersion(provider.config),
        weight,
        latency_ms: Math.round(elapsed()),
        attempts: attempt,
        usage,
        cost_usd: costUsd(provider.config, usage),
        ...(round === undefined ? {} : { round }),
      });
    const ask = async (pictures: string[]): Promise<Vote> => {
      const estimate = tpm === null ? 0 : estimatedTokens(data, pictures.length);
      if (tpm !== null) {
        const waitMs = await tokenBudget.take(id, tpm, estimate);
        if (waitMs > 0) return outOfTokens(waitMs);
      }
      /** Charges the call what it really used, once it says (an estimate was taken before it). */
      const settleTokens = (usage: TokenUsage | null) => {
        if (tpm === null || usage === null) return;
        tokenBudget.correct(id, tpm, usage.input_tokens + usage.output_tokens - estimate).catch(() => undefined);
      };
      started = performance.now(); // the model's latency, not Redis's
      // The SDK's own timeout may end the attempt sooner; the deadline ends it at the latest.
      const left = msUntilDeadline(data.vote_deadline_at);
      const cut = Number.isFinite(left) ? AbortSignal.timeout(Math.max(0, left)) : undefined;
      const signals = [cut, cancelled].filter((s): s is AbortSignal => s !== undefined);
      const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
      try {
        const answer = await callModel(data, pictures, signal);
        settleTokens(answer.usage);
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
          ...(round === undefined ? {} : { round }),
        };
      } catch (caught) {
        const error = asProviderError(caught);
        if (cancelled?.aborted) {
          settleTokens(error.usage);
          if (cancelled.reason === ("client-gone" satisfies CancelReason)) return cancelledVote(round, elapsed(), attempt, error.usage);
          // Early quorum settled the decision without this vote: nothing to count or retry.
          return skippedVote(elapsed(), attempt);
        }
        settleTokens(error.usage);
        voteDuration.observe({ provider: id, outcome: "error" }, elapsed() / 1000);
        voteErrors.inc({ provider: id, kind: error.kind });
        if (cut?.aborted) {
          logger.warn({ provider: id, decision_id: data.decision_id, attempt }, "vote cut at its deadline");
          return failed(VOTE_DEADLINE_ERRORS.noAnswer, error.raw, error.usage);
        }
        const deadlineInMs = msUntilDeadline(data.vote_deadline_at);
        // Only a vote with a deadline pauses: attempts are what bound one enqueued before deadlines existed.
        if (error.kind === "rate_limited" && error.retryAfterMs !== null && Number.isFinite(deadlineInMs)) {
          const pause = { provider: id, decision_id: data.decision_id, attempt, pause_ms: error.retryAfterMs };
          if (error.retryAfterMs < deadlineInMs) {
            logger.warn(pause, "vote rate-limited: the provider's queue pauses for the vendor's Retry-After");
            throw new QueueRateLimited(error.retryAfterMs, error);
          }
          logger.warn(pause, "vote rate-limited past its deadline: no pause, the vote is an error");
          return failed(VOTE_DEADLINE_ERRORS.rateLimited, error.raw, error.usage);
        }
        const attemptsLeft = attempt < attempts.of;
        if (error.retryable && attemptsLeft) {
          const retryInMs = backoff(attempt, VOTE_BACKOFF_TYPE, error);
          if (retryInMs < msUntilDeadline(data.vote_deadline_at)) {
            logger.warn({ provider: id, decision_id: data.decision_id, attempt, kind: error.kind, retry_in_ms: retryInMs }, "vote failed, will retry");
            throw new VoteRetry(error.message, retryInMs, error);
          }
          logger.warn(
            { provider: id, decision_id: data.decision_id, attempt, kind: error.kind, retry_in_ms: retryInMs },
            "vote failed, no retry: it would start after the vote's deadline",
          );
          const why = error.kind === "rate_limited" ? VOTE_DEADLINE_ERRORS.rateLimited : VOTE_DEADLINE_ERRORS.noTimeToRetry(error.message);
          return failed(why, error.raw, error.usage);
        }
        logger.warn({ provider: id, decision_id: data.decision_id, attempt, kind: error.kind, err: error.message }, "vote failed");
        return failed(error.message, error.raw, error.usage);
      }
    };
    /** The provider's tokens for this minute are spent: the queue pauses for every worker until they are back, unless that is past the deadline. */
    const outOfTokens = (waitMs: number): Vote => {
      const pause = { provider: id, decision_id: data.decision_id, attempt, pause_ms: waitMs };
      if (waitMs < msUntilDeadline(data.vote_deadline_at)) {
        logger.warn(pause, "tokens per minute spent: the provider's queue pauses until they are back");
        throw new QueueRateLimited(waitMs);
      }
      logger.warn(pause, "tokens per minute spent past this vote's deadline: the vote is an error");
      return failed(VOTE_DEADLINE_ERRORS.rateLimited, null, null);
    };
    const notAsked = (): Vote => {
      voteErrors.inc({ provider: id, kind: "deadline" });
      logger.warn({ provider: id, decision_id: data.decision_id, attempt }, "vote not asked: its deadline has passed");
      return failed(VOTE_DEADLINE_ERRORS.notAsked, null, null);
    };
    // A job that waited past its deadline (a backlog, a crashed worker's job handed on) asks no model:
    // the decision has waited long enough for it.
    const vote =
      msUntilDeadline(data.vote_deadline_at) <= 0
        ? notAsked()
        : await images.readAll(data.images).then(
            (pictures) => ask(pictures),
            (error: unknown) => {
              // Retrying cannot bring an expired image back; any other failure to read (Redis down) is retried by BullMQ.
              if (!(error instanceof ImageExpiredError)) throw error;
              voteErrors.inc({ provider: id, kind: "image_expired" });
              logger.warn({ provider: id, decision_id: data.decision_id, images: error.labels }, "vote impossible: images expired");
              return failed(error.message, null, null);
            },
          );
    return vote;
  }
}

/** Characters per token, roughly, in the vendors' tokenizers for English text. */
const CHARACTERS_PER_TOKEN = 4;
/** What an image is taken to cost before the answer tells (the vendors charge about 250 to 1,600). */
const TOKENS_PER_IMAGE = 1000;
/** Room for the answer: a category, a one-sentence reason and a confidence in JSON. */
const ANSWER_TOKENS = 200;

/** The tokens a call is taken to use until its answer reports them: its texts, its images and the answer's room. */
export function estimatedTokens(data: VoteJob, images: number): number {
  const texts = [data.question, ...data.categories, ...(data.peers ?? []).map((p) => p.reason ?? ""), ...(data.panel_answers ?? []).map((a) => a.reason ?? "")];
  const characters = texts.reduce((sum, text) => sum + text.length, 0);
  return Math.ceil(characters / CHARACTERS_PER_TOKEN) + images * TOKENS_PER_IMAGE + ANSWER_TOKENS;
}
