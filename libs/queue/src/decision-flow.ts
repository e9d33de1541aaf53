import { FlowProducer, QueueEvents, type Job } from "bullmq";
import type { Redis } from "ioredis";
import {
  AGGREGATE_QUEUE,
  voteJobId,
  voteQueueName,
  type AggregateJob,
  type DecisionResponse,
  type VoteJob,
} from "@sd/contracts";
import { voteJobOptions } from "./vote-policy";

/** Attempts at writing a decision: the store may be briefly unreachable. */
const AGGREGATE_ATTEMPTS = 5;
const AGGREGATE_BACKOFF_MS = 1000;

/** Longest the aggregate job's retries can add after the votes are in (exponential backoff between its attempts). */
export const AGGREGATE_RETRY_WINDOW_MS = Array.from({ length: AGGREGATE_ATTEMPTS - 1 }, (_, i) => AGGREGATE_BACKOFF_MS * 2 ** i).reduce((a, b) => a + b, 0);

/**
 * The gateway's side of the pipeline: one BullMQ flow per decision (a parent on the aggregate
 * queue, one child vote per provider) and a wait for the aggregator's result. Jobs carry image
 * references (see ImageStash), never image bytes.
 */
export class DecisionFlow {
  private readonly producer: FlowProducer;
  private readonly events: QueueEvents;
  private readonly eventsConnection: Redis;

  constructor(
    connection: Redis,
    private readonly prefix: string,
    private readonly voteAttempts: number,
  ) {
    this.producer = new FlowProducer({ connection, prefix });
    // Every request waiting for its result listens for the producer closing; they are many by design.
    this.producer.setMaxListeners(0);
    // QueueEvents blocks on a stream read, so it needs its own connection (BullMQ leaves closing it to us).
    this.eventsConnection = connection.duplicate();
    this.events = new QueueEvents(AGGREGATE_QUEUE, { connection: this.eventsConnection, prefix });
  }

  async ready(): Promise<void> {
    await this.events.waitUntilReady();
  }

  /** Enqueues a decision; job ids derive from the decision id, so enqueuing twice adds nothing. */
  async enqueue(decision: AggregateJob): Promise<Job<AggregateJob, DecisionResponse>> {
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

  async close(): Promise<void> {
    await Promise.all([this.producer.close(), this.events.close()]);
    this.eventsConnection.disconnect();
  }

  get keyPrefix(): string {
    return this.prefix;
  }
}
