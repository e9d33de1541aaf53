import type { EventEmitter } from "node:events";
import { FlowProducer, Job, Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import {
  AGGREGATE_QUEUE,
  voteJobId,
  voteQueueName,
  type AggregateJob,
  type DecisionResponse,
  type VoteJob,
} from "@sd/contracts";
import { patientDuplicate } from "./redis";
import { voteJobOptions } from "./vote-policy";

/** Attempts at writing a decision: the store may be briefly unreachable. */
const AGGREGATE_ATTEMPTS = 5;
const AGGREGATE_BACKOFF_MS = 1000;

/** Longest the aggregate job's retries can add after the votes are in (exponential backoff between its attempts). */
export const AGGREGATE_RETRY_WINDOW_MS = Array.from({ length: AGGREGATE_ATTEMPTS - 1 }, (_, i) => AGGREGATE_BACKOFF_MS * 2 ** i).reduce((a, b) => a + b, 0);

const SHUTTING_DOWN = "The gateway is shutting down.";

/** No result arrived within the wait (the decision still completes and is stored). */
export class DecisionTimeoutError extends Error {
  override readonly name = "DecisionTimeoutError";
  constructor(decisionId: string, timeoutMs: number) {
    super(`Decision ${decisionId} timed out: no result after ${timeoutMs} ms`);
  }
}

/**
 * The decision's flow is gone from Redis while a client waited for it: Redis restarted without
 * persistence (or lost its data). Nothing will ever finish it, so the client is told at once
 * instead of waiting out its timeout.
 */
export class DecisionLostError extends Error {
  override readonly name = "DecisionLostError";
  constructor(decisionId: string) {
    super(`Decision ${decisionId} was lost: its flow is no longer in Redis`);
  }
}

/** A client's wait for one decision's result. */
interface Wait {
  decisionId: string;
  /** Ends the wait with an error (shutdown, timeout, lost flow). */
  abort: (error: Error) => void;
  /** Reads the decision's state from Redis and settles the wait if it finished or vanished. */
  check: () => Promise<void>;
}

/** A decision whose flow is in Redis: its owner and where it stands. */
export interface DecisionInFlight {
  decisionId: string;
  userId: string | null;
  apiKeyId: string | null;
  /** `pending` while the models vote or the aggregator writes it (retries included). */
  state: "pending" | "completed" | "failed";
}

/**
 * The gateway's side of the pipeline: one BullMQ flow per decision (a parent on the aggregate
 * queue, one child vote per provider) and a wait for the aggregator's result. Jobs carry image
 * references (see ImageStash), never image bytes.
 */
export class DecisionFlow {
  private readonly producer: FlowProducer;
  private readonly events: QueueEvents;
  private readonly eventsConnection: Redis;
  /** The aggregate queue, to read a decision's parent job by id. */
  private readonly aggregate: Queue<AggregateJob, DecisionResponse>;
  /** Waits in progress: checked again after a reconnect, ended with an error when the flow closes. */
  private readonly waits = new Set<Wait>();
  /** Resolvers of `drain`, called when the last wait ends. */
  private readonly drained = new Set<() => void>();
  private closed = false;

  /**
   * `connection` serves the request path: with the offline queue off (`createRequestRedis`) an
   * enqueue while Redis is away fails at once. The result stream is read on a patient duplicate.
   */
  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly voteAttempts: number,
  ) {
    this.producer = new FlowProducer({ connection, prefix });
    // Every request waiting for its result listens for the producer closing; they are many by design.
    this.producer.setMaxListeners(0);
    // QueueEvents blocks on a stream read, so it needs its own connection (BullMQ leaves closing it to us).
    this.eventsConnection = patientDuplicate(connection, "decision-results");
    this.events = new QueueEvents(AGGREGATE_QUEUE, { connection: this.eventsConnection, prefix });
    // Every wait listens for its own decision's events.
    this.events.setMaxListeners(0);
    this.aggregate = new Queue(AGGREGATE_QUEUE, { connection, prefix });
    // Redis comes back after an outage or a restart: a flow that did not survive it (no
    // persistence) will never finish, and one that finished meanwhile may have been missed.
    connection.on("ready", this.recheckWaits);
  }

  private readonly recheckWaits = () => {
    for (const wait of [...this.waits]) void wait.check().catch(() => undefined);
  };

  async ready(): Promise<void> {
    await this.events.waitUntilReady();
  }

  /** Enqueues a decision; job ids derive from the decision id, so enqueuing twice adds nothing. */
  async enqueue(decision: AggregateJob): Promise<Job<AggregateJob, DecisionResponse>> {
    // Early quorum applies to the modes that count round-1 votes; each vote then knows every panel weight.
    const quorumWeights =
      decision.early_quorum && (decision.ensemble_mode === "majority_voting" || decision.ensemble_mode === "weighted_voting")
        ? Object.fromEntries(decision.providers.map((p) => [p, decision.ensemble_mode === "weighted_voting" ? (decision.weights?.[p] ?? 1) : 1]))
        : null;
    const node = await this.producer.add({
      name: "aggregate",
      queueName: AGGREGATE_QUEUE,
      data: decision,
      opts: {
        jobId: decision.decision_id,
        // Writing the decision may meet a store outage: retry it rather than lose the decision.
        attempts: AGGREGATE_ATTEMPTS,
        backoff: { type: "exponential", delay: AGGREGATE_BACKOFF_MS },
        removeOnComplete: { age: 3600, count: 5000 },
        removeOnFail: { age: 24 * 3600 },
      },
      children: decision.providers.map((provider) => ({
        name: "vote",
        queueName: voteQueueName(provider),
        data: {
          decision_id: decision.decision_id,
          request_id: decision.request_id,
          provider,
          question: decision.question,
          categories: decision.categories,
          images: decision.images,
          vote_deadline_at: decision.vote_deadline_at,
          round: 1,
          ...(quorumWeights ? { quorum_weights: quorumWeights } : {}),
        } satisfies VoteJob,
        opts: { jobId: voteJobId(decision.decision_id, provider), ...voteJobOptions(this.voteAttempts) },
      })),
    });
    return node.job as Job<AggregateJob, DecisionResponse>;
  }

  /** Resolves with the aggregator's result, or rejects after `timeoutMs`. */
  waitForResult(job: Job<AggregateJob, DecisionResponse>, timeoutMs: number): Promise<DecisionResponse> {
    return job.waitUntilFinished(this.events, timeoutMs);
  }

  /**
   * Resolves with the aggregator's result for a decision known by its id only: already finished,
   * in flight, or not enqueued yet (a concurrent request with the same idempotency key is about to
   * enqueue it). Rejects with the job's failure, or a `DecisionTimeoutError` after `timeoutMs`.
   * A finished job is found while BullMQ keeps it (an hour); older results are read from the store.
   */
  async waitForDecision(decisionId: string, timeoutMs: number): Promise<DecisionResponse> {
    await this.events.waitUntilReady();
    if (this.closed) throw new Error(SHUTTING_DOWN);
    // QueueEvents also emits `completed:<jobId>` and `failed:<jobId>`, which its typings do not list.
    const events = this.events as unknown as EventEmitter;
    return new Promise<DecisionResponse>((resolve, reject) => {
      const completed = `completed:${decisionId}`;
      const failed = `failed:${decisionId}`;
      const finish = () => {
        clearTimeout(timer);
        events.off(completed, onCompleted);
        events.off(failed, onFailed);
        this.waits.delete(wait);
        if (this.waits.size === 0) for (const resolveDrain of [...this.drained]) resolveDrain();
      };
      const onCompleted = ({ returnvalue }: { returnvalue: unknown }) => {
        finish();
        resolve(returnvalue as DecisionResponse);
      };
      const onFailed = ({ failedReason }: { failedReason: string }) => {
        finish();
        reject(new Error(failedReason));
      };
      const abort = (error: Error) => {
        finish();
        reject(error);
      };
      const check = async (missing: "wait" | "lost") => {
        if (missing === "lost" && !(await Job.fromId(this.aggregate, decisionId))) return abort(new DecisionLostError(decisionId));
        // The state first, then the job: a job read before it finished would carry no result yet.
        const state = await this.aggregate.getJobState(decisionId);
        if (state !== "completed" && state !== "failed") return;
        const job = await Job.fromId<AggregateJob, DecisionResponse>(this.aggregate, decisionId);
        if (!job) return;
        if (state === "completed") onCompleted({ returnvalue: job.returnvalue });
        else onFailed({ failedReason: job.failedReason });
      };
      const timer = setTimeout(() => abort(new DecisionTimeoutError(decisionId, timeoutMs)), timeoutMs);
      // After a reconnect an unknown job is a lost one. At first it may not be enqueued yet (a
      // concurrent request with the same idempotency key is about to enqueue it).
      const wait: Wait = { decisionId, abort, check: () => check("lost") };
      // Listen first, then look: a job that finishes in between is seen by one or the other.
      events.on(completed, onCompleted);
      events.on(failed, onFailed);
      this.waits.add(wait);
      check("wait").catch(abort);
    });
  }

  /**
   * Resolves once no client waits for a result, or after `timeoutMs`: a gateway shutting down
   * answers the requests it accepted before it closes the flow.
   */
  drain(timeoutMs: number): Promise<void> {
    if (this.waits.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.drained.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.drained.add(done);
    });
  }

  /** The decision's flow if it is still in Redis (BullMQ keeps a finished one for an hour), else null. */
  async lookup(decisionId: string): Promise<DecisionInFlight | null> {
    const job = await Job.fromId<AggregateJob, DecisionResponse>(this.aggregate, decisionId);
    if (!job) return null;
    // Read after the job: a job that finishes in between reads as completed, never the reverse.
    const state = await job.getState();
    return {
      decisionId,
      userId: job.data.user_id ?? null,
      // Flows enqueued before API keys existed carry no key.
      apiKeyId: job.data.api_key_id ?? null,
      state: state === "completed" ? "completed" : state === "failed" ? "failed" : "pending",
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connection.off("ready", this.recheckWaits);
    for (const wait of [...this.waits]) wait.abort(new Error(SHUTTING_DOWN));
    await Promise.all([this.producer.close(), this.events.close(), this.aggregate.close()]);
    this.eventsConnection.disconnect();
  }

  get keyPrefix(): string {
    return this.prefix;
  }
}
