import { FlowProducer, Job, Queue } from "bullmq";
import type { Redis } from "ioredis";
import {
  AGGREGATE_QUEUE,
  voteJobId,
  voteQueueName,
  type AggregateJob,
  type DecisionOutcome,
  type DecisionResponse,
  type Vote,
  type VoteJob,
} from "@sd/contracts";
import { decodeOutcome, hearOutcomesInProcess, outcomeDecisionId, subscribeToOutcomes } from "./decision-outcomes";
import { finishedCalls, type FinishedCalls } from "./decision-steps";
import { onReconnect, patientDuplicate } from "./redis";
import { retentionJobOptions } from "./job-retention";
import { voteJobOptions } from "./vote-policy";
import { LANE_PRIORITIES, type DecisionLane } from "./decision-lanes";

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
  /** When the wait began (ms, monotonic): long waits are checked against the queue now and then. */
  since: number;
  /** Set once the decision is known to be enqueued: only then does a missing flow mean a lost one. */
  enqueued: boolean;
  settle: (outcome: DecisionOutcome) => void;
  /** Ends the wait with an error (shutdown, timeout, lost flow). */
  abort: (error: Error) => void;
  /** Stops waiting without an answer (the caller gave up before enqueuing). */
  cancel: () => void;
}

/** A wait begun before its decision is enqueued (see `DecisionFlow.listen`). */
export interface PendingDecision {
  /** The aggregator's result; rejects like `waitForDecision`. */
  readonly result: Promise<DecisionResponse>;
  /** The decision is enqueued: from now on, a flow found missing (after a reconnect, or by the check of long waits) is a lost one. */
  enqueued(): void;
  /** The decision was not enqueued after all: stop waiting (`result` then never settles). */
  cancel(): void;
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
 * queue, one child vote per provider) and a wait for the aggregator's result, which arrives on the
 * decision-outcomes channel (see decision-outcomes.ts). Jobs carry image references (see ImageStash),
 * never image bytes.
 */
export class DecisionFlow {
  private readonly producer: FlowProducer;
  /** Subscribed to the outcomes channel (a subscribed connection can do nothing else). */
  private readonly subscriber: Redis;
  private readonly subscribed: Promise<void>;
  /** The aggregate queue, to read a decision's parent job by id. */
  private readonly aggregate: Queue<AggregateJob, DecisionResponse>;
  /** Waits in progress by decision: settled by its outcome, checked again after a reconnect, ended with an error when the flow closes. */
  private readonly waits = new Map<string, Set<Wait>>();
  private waiting = 0;
  /** Resolvers of `drain`, called when the last wait ends. */
  private readonly drained = new Set<() => void>();
  private closed = false;
  /** Stops reading the waits' jobs again when `connection` reconnects. */
  private readonly stopRechecks: () => void;
  /** Stops hearing the outcomes of an aggregator in this process. */
  private readonly stopHearingInProcess: () => void;
  /** Checks long waits now and then: an outcome whose message was lost is read from the job. */
  private readonly sweep: NodeJS.Timeout;

  /**
   * `connection` serves the request path: with the offline queue off (`createRequestRedis`) an
   * enqueue while Redis is away fails at once. The outcomes are heard on a patient duplicate.
   */
  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
    private readonly voteAttempts: number,
    /** How often, and past what age, waits are checked against the queue (see `sweep`). */
    private readonly sweepMs = 5000,
  ) {
    this.producer = new FlowProducer({ connection, prefix });
    this.sweep = setInterval(this.checkLongWaits, sweepMs);
    this.sweep.unref();
    this.subscriber = patientDuplicate(connection, "decision-outcomes");
    this.subscribed = subscribeToOutcomes(this.subscriber, prefix, this.onOutcome);
    // Do not leave the promise's failure unhandled before `ready` is awaited.
    this.subscribed.catch(() => undefined);
    this.stopHearingInProcess = hearOutcomesInProcess(prefix, this.settle);
    this.aggregate = new Queue(AGGREGATE_QUEUE, { connection, prefix });
    // Redis comes back after an outage or a restart: a flow that did not survive it (no
    // persistence) will never finish, and an outcome published meanwhile was missed. Not on the
    // first connect: a wait for a decision another request is about to enqueue would read as lost.
    this.stopRechecks = onReconnect(connection, this.recheckWaits);
    // ioredis subscribes again right after it reports "ready": look once that is done (the PING
    // is answered after the SUBSCRIBE), so an outcome published meanwhile is heard or read.
    onReconnect(this.subscriber, () => setImmediate(() => this.subscriber.ping().then(this.recheckWaits, () => undefined)));
  }

  private readonly recheckWaits = () => {
    for (const waits of [...this.waits.values()]) for (const wait of [...waits]) void this.check(wait).catch(() => undefined);
  };

  /**
   * Pub/sub keeps nothing: the message of an aggregator that crashed between recording the
   * outcome and publishing it is lost. The few waits older than `sweepMs` read their job's state.
   */
  private readonly checkLongWaits = () => {
    const before = performance.now() - this.sweepMs;
    for (const waits of this.waits.values()) for (const wait of waits) if (wait.since < before) void this.check(wait).catch(() => undefined);
  };

  private readonly onOutcome = (message: string) => {
    if (!this.waits.has(outcomeDecisionId(message))) return;
    const outcome = decodeOutcome(message);
    if (outcome) this.settle(outcome);
  };

  private readonly settle = (outcome: DecisionOutcome) => {
    const waits = this.waits.get(outcome.decision_id);
    if (waits) for (const wait of [...waits]) wait.settle(outcome);
  };

  async ready(): Promise<void> {
    await this.subscribed;
  }

  /**
   * Enqueues a decision and returns its id (what every other method takes); job ids derive from the
   * decision id, so enqueuing twice adds nothing (decision-lanes.test.ts proves it). `lane` sets the
   * jobs' priorities (see LANE_PRIORITIES). `quorumWeights` (early quorum on: every panel
   * weight, see libs/ensemble) goes to each vote.
   */
  async enqueue(decision: AggregateJob, quorumWeights: Readonly<Record<string, number>> | null = null, lane: DecisionLane = "interactive"): Promise<string> {
    const priorities = LANE_PRIORITIES[lane];
    await this.producer.add({
      name: "aggregate",
      queueName: AGGREGATE_QUEUE,
      data: decision,
      opts: {
        jobId: decision.decision_id,
        priority: priorities.aggregate,
        // Writing the decision may meet a store outage: retry it rather than lose the decision.
        attempts: AGGREGATE_ATTEMPTS,
        backoff: { type: "exponential", delay: AGGREGATE_BACKOFF_MS },
        ...retentionJobOptions(),
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
          ...(quorumWeights ? { quorum_weights: { ...quorumWeights } } : {}),
        } satisfies VoteJob,
        opts: {
          jobId: voteJobId(decision.decision_id, provider),
          ...voteJobOptions(this.voteAttempts),
          ...(priorities.vote !== undefined ? { priority: priorities.vote } : {}),
        },
      })),
    });
    return decision.decision_id;
  }

  /**
   * What the decision's votes (and later calls) came to, by job id, while its flow is in Redis;
   * rejects with a `DecisionLostError` once it is gone.
   */
  async finishedCalls<Result = Vote>(decisionId: string): Promise<FinishedCalls<Result>> {
    const job = await Job.fromId<AggregateJob, DecisionResponse>(this.aggregate, decisionId);
    if (!job) throw new DecisionLostError(decisionId);
    return finishedCalls<Result>(job);
  }

  /**
   * Starts waiting for a decision that is about to be enqueued. Listening first means its outcome
   * cannot be missed, so the queue is not read unless the wait outlasts `sweepMs` or Redis
   * reconnects: the cheap path of a new decision. Rejects with the job's failure, a
   * `DecisionTimeoutError` after `timeoutMs`, or a `DecisionLostError` when its flow is found gone.
   */
  listen(decisionId: string, timeoutMs: number): PendingDecision {
    const { wait, result } = this.open(decisionId, timeoutMs);
    return {
      result,
      enqueued: () => {
        if (wait) wait.enqueued = true;
      },
      cancel: () => wait?.cancel(),
    };
  }

  /**
   * Resolves with the aggregator's result for a decision known by its id only: already finished,
   * in flight, or not enqueued yet (a concurrent request with the same idempotency key is about to
   * enqueue it). Rejects with the job's failure, or a `DecisionTimeoutError` after `timeoutMs`.
   * A finished job is found while BullMQ keeps it (an hour); older results are read from the store.
   */
  async waitForDecision(decisionId: string, timeoutMs: number): Promise<DecisionResponse> {
    await this.ready();
    // Taken as enqueued: on later checks (a reconnect, a long wait) a flow that is not there is a
    // lost one. At first it may not be enqueued yet (a concurrent request with the same
    // idempotency key is about to), so the first look does not count a missing one as lost.
    const { wait, result } = this.open(decisionId, timeoutMs, true);
    // Listen first, then look: an outcome published in between is heard by one or the other.
    if (wait) this.check(wait, false).catch((error: Error) => wait.abort(error));
    return result;
  }

  /** Registers a wait for the decision's outcome (none once the flow is closed: `result` rejects). */
  private open(decisionId: string, timeoutMs: number, enqueued = false): { wait: Wait | undefined; result: Promise<DecisionResponse> } {
    let wait: Wait | undefined;
    const result = new Promise<DecisionResponse>((resolve, reject) => {
      if (this.closed) return reject(new Error(SHUTTING_DOWN));
      const finish = (): boolean => {
        clearTimeout(timer);
        const waits = this.waits.get(decisionId);
        if (!waits?.delete(registered)) return false;
        if (waits.size === 0) this.waits.delete(decisionId);
        this.waiting -= 1;
        if (this.waiting === 0) for (const resolveDrain of [...this.drained]) resolveDrain();
        return true;
      };
      const registered: Wait = {
        decisionId,
        since: performance.now(),
        enqueued,
        settle: (outcome) => {
          if (!finish()) return;
          if (outcome.ok) resolve(outcome.response);
          else reject(new Error(outcome.reason));
        },
        abort: (error) => {
          if (finish()) reject(error);
        },
        cancel: () => void finish(),
      };
      const timer = setTimeout(() => registered.abort(new DecisionTimeoutError(decisionId, timeoutMs)), timeoutMs);
      let waits = this.waits.get(decisionId);
      if (!waits) this.waits.set(decisionId, (waits = new Set()));
      waits.add(registered);
      this.waiting += 1;
      wait = registered;
    });
    return { wait, result };
  }

  /**
   * Reads a waited-for decision's job and settles the wait if it finished. With `missingIsLost`
   * (once the decision is known to be enqueued) a flow that is not there was lost: Redis restarted
   * without persistence. One read of the job's hash: BullMQ stamps `finishedOn` in the same script
   * that stores the return value (completed) or the failure (failed for good; an attempt it
   * retries gets no `finishedOn`), so a job read with it carries its result.
   */
  private async check(wait: Wait, missingIsLost = wait.enqueued): Promise<void> {
    const job = await Job.fromId<AggregateJob, DecisionResponse>(this.aggregate, wait.decisionId);
    if (!job) {
      if (missingIsLost) wait.abort(new DecisionLostError(wait.decisionId));
      return;
    }
    if (!job.finishedOn) return;
    // The aggregator always returns the decision; a job with no return value failed for good.
    wait.settle(
      job.returnvalue != null
        ? { decision_id: wait.decisionId, ok: true, response: job.returnvalue }
        : { decision_id: wait.decisionId, ok: false, reason: job.failedReason },
    );
  }

  /**
   * Resolves once no client waits for a result, or after `timeoutMs`: a gateway shutting down
   * answers the requests it accepted before it closes the flow.
   */
  drain(timeoutMs: number): Promise<void> {
    if (this.waiting === 0) return Promise.resolve();
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

  /** Decisions this gateway is waiting for (the in-flight limit counts them). */
  get waitingCount(): number {
    return this.waiting;
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
    clearInterval(this.sweep);
    this.stopRechecks();
    this.stopHearingInProcess();
    for (const waits of [...this.waits.values()]) for (const wait of [...waits]) wait.abort(new Error(SHUTTING_DOWN));
    await Promise.all([this.producer.close(), this.aggregate.close()]);
    this.subscriber.disconnect();
  }

  get keyPrefix(): string {
    return this.prefix;
  }
}
