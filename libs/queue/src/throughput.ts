import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { AGGREGATE_QUEUE, voteQueueName, type ThroughputEvent } from "@sd/contracts";

/**
 * Live throughput figures, kept in Redis so every gateway reads the same numbers whichever
 * gateway, worker or aggregator process did the work (one process's memory would show only its
 * own share). Writers pipeline their commands: one round trip each.
 *
 * Keys (all under QUEUE_PREFIX):
 * - `<prefix>:throughput:finished:<unix second>`: a counter of decisions finished in that second
 *   (INCR + EXPIRE, 120 s: long enough to be read the second after, short enough to stay small).
 * - `<prefix>:throughput:in-flight`: a sorted set of decision ids scored by their start time (ms).
 *   The gateway adds a decision when it enqueues it, the aggregator removes it when it is written.
 *   Entries older than the in-flight horizon (a gateway or aggregator that crashed in between, a
 *   decision whose aggregation finally failed) are dropped on read, and the whole key expires
 *   after the horizon without new decisions, so no crash leaves a decision "in flight" for good.
 * - `<prefix>:throughput:votes:<provider>`: a sorted set of the provider's finished votes scored
 *   by their end time (ms), member `<latency ms>:<ok|error>:<vote id>`; trimmed to the last minute
 *   on every write and expiring a minute after the last vote.
 *
 * Commands per decision with P providers: gateway 2 (ZADD, PEXPIRE), aggregator 3 (ZREM, INCR,
 * EXPIRE), workers 3 per vote (ZADD, ZREMRANGEBYSCORE, PEXPIRE): 5 + 3P in 2 + P round trips.
 * Scores come from each process's clock: the figures assume clocks within a second of each other.
 */
export const THROUGHPUT_WINDOW_MS = 60_000;
const FINISHED_TTL_SECONDS = 120;

const finishedKey = (prefix: string, second: number) => `${prefix}:throughput:finished:${second}`;
const inFlightKey = (prefix: string) => `${prefix}:throughput:in-flight`;
const votesKey = (prefix: string, provider: string) => `${prefix}:throughput:votes:${provider}`;

/** Records the throughput facts; a failure to record never fails a decision or a vote (it is reported to `onError`). */
export class ThroughputRecorder {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** How long a decision may stay in flight before it is taken for lost (see the key comment above). */
    private readonly inFlightHorizonMs: number = 10 * 60_000,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** The gateway enqueues a decision. */
  async decisionStarted(decisionId: string, now = Date.now()): Promise<void> {
    const key = inFlightKey(this.prefix);
    await this.run(this.redis.pipeline().zadd(key, now, decisionId).pexpire(key, this.inFlightHorizonMs));
  }

  /** The decision left the pipeline: written (`finished`), or never enqueued after all. */
  async decisionEnded(decisionId: string, finished: boolean, now = Date.now()): Promise<void> {
    const pipeline = this.redis.pipeline().zrem(inFlightKey(this.prefix), decisionId);
    if (finished) {
      const key = finishedKey(this.prefix, Math.floor(now / 1000));
      pipeline.incr(key).expire(key, FINISHED_TTL_SECONDS);
    }
    await this.run(pipeline);
  }

  /** A provider's vote is final (success or error vote); `voteId` makes the entry unique (job id and attempt). */
  async voteFinished(provider: string, voteId: string, latencyMs: number, ok: boolean, now = Date.now()): Promise<void> {
    const key = votesKey(this.prefix, provider);
    const member = `${Math.max(0, Math.round(latencyMs))}:${ok ? "ok" : "error"}:${voteId}`;
    await this.run(
      this.redis
        .pipeline()
        .zadd(key, now, member)
        .zremrangebyscore(key, "-inf", `(${now - THROUGHPUT_WINDOW_MS}`)
        .pexpire(key, THROUGHPUT_WINDOW_MS),
    );
  }

  private async run(pipeline: ReturnType<Redis["pipeline"]>): Promise<void> {
    try {
      const results = (await pipeline.exec()) ?? [];
      const failed = results.find(([error]) => error !== null);
      if (failed) throw failed[0];
    } catch (error) {
      this.onError(error);
    }
  }
}

/** Nearest-rank percentile of sorted values (null without any). */
function percentile(sorted: readonly number[], q: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

/** Reads the figures of the admin room's throughput event. */
export class ThroughputReader {
  private readonly queues: Queue[];

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly providers: readonly string[],
    private readonly inFlightHorizonMs: number = 10 * 60_000,
  ) {
    this.queues = [AGGREGATE_QUEUE, ...providers.map(voteQueueName)].map((name) => new Queue(name, { connection: redis, prefix }));
  }

  /**
   * The figures at `now`: decisions finished in the last whole second, decisions in flight, jobs
   * waiting per queue, and each provider's votes, latency p50/p95 (all final votes, errors
   * included: a provider that times out is slow) and error rate over the last minute.
   */
  async read(now = Date.now()): Promise<ThroughputEvent> {
    const inFlight = inFlightKey(this.prefix);
    const pipeline = this.redis
      .pipeline()
      .get(finishedKey(this.prefix, Math.floor(now / 1000) - 1))
      .zremrangebyscore(inFlight, "-inf", `(${now - this.inFlightHorizonMs}`)
      .zcard(inFlight);
    for (const provider of this.providers) pipeline.zrangebyscore(votesKey(this.prefix, provider), now - THROUGHPUT_WINDOW_MS, "+inf");
    const [results, waiting] = await Promise.all([
      pipeline.exec(),
      Promise.all(this.queues.map(async (queue) => [queue.name, await queue.getWaitingCount()] as const)),
    ]);
    const values = (results ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    });
    const providers: ThroughputEvent["providers"] = {};
    this.providers.forEach((provider, i) => {
      const members = values[3 + i] as string[];
      const latencies: number[] = [];
      let errors = 0;
      for (const member of members) {
        const [latency, outcome] = member.split(":");
        latencies.push(Number(latency));
        if (outcome === "error") errors += 1;
      }
      latencies.sort((a, b) => a - b);
      providers[provider] = {
        votes: members.length,
        latency_p50_ms: percentile(latencies, 0.5),
        latency_p95_ms: percentile(latencies, 0.95),
        error_rate: members.length === 0 ? 0 : errors / members.length,
      };
    });
    return {
      at: new Date(now).toISOString(),
      decisions_per_second: Number(values[0] ?? 0),
      decisions_in_flight: values[2] as number,
      queue_waiting: Object.fromEntries(waiting),
      providers,
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.queues.map((queue) => queue.close()));
  }
}
