import type { Redis } from "ioredis";
import type { ThroughputEvent } from "@sd/contracts";
import type { QueueInspector } from "./queue-depth";
import { throughputFinishedKey, throughputVotesKey } from "./queue-keys";

/**
 * Live throughput figures, kept in Redis so every gateway reads the same numbers whichever
 * gateway, worker or aggregator process did the work (one process's memory would show only its
 * own share).
 *
 * Keys (all under QUEUE_PREFIX):
 * - `<prefix>:throughput:finished:<unix second>`: a counter of decisions written in that second
 *   (INCR + EXPIRE, 120 s: long enough to be read the second after, short enough to stay small).
 * - `<prefix>:throughput:votes:<provider>`: a sorted set of the provider's finished votes scored
 *   by the time their decision was written (ms), member `<latency ms>:<ok|error>:<vote id>`;
 *   expiring a minute after the last vote, and trimmed to the last minute at each write.
 * Decisions in flight are not recorded at all: they are the aggregate queue's unfinished jobs,
 * from enqueue until the decision is written, which BullMQ counts already.
 *
 * The aggregator records a decision and its votes together once the decision is written, with one
 * script (RECORD_SCRIPT) instead of eight commands or so: each command costs the aggregator's
 * Redis client about as much as the script's whole work costs Redis. The votes' own jobs record
 * nothing, so no Redis round trip stands between a model's answer and the end of its vote.
 * Scores come from each process's clock: the figures assume clocks within a second of each other.
 */
export const THROUGHPUT_WINDOW_MS = 60_000;
const FINISHED_TTL_SECONDS = 120;

/**
 * KEYS: the second's counter, then one votes set per provider. ARGV: the counter's TTL (s), the
 * votes' TTL (ms), the trim bound (`(<ms>`: older entries go), then per provider the number of
 * ZADD arguments that follow and those arguments (score, member, ...).
 */
const RECORD_SCRIPT = `
redis.call("INCR", KEYS[1])
redis.call("EXPIRE", KEYS[1], ARGV[1])
local at = 4
for k = 2, #KEYS do
  local count = tonumber(ARGV[at])
  redis.call("ZADD", KEYS[k], unpack(ARGV, at + 1, at + count))
  redis.call("PEXPIRE", KEYS[k], ARGV[2])
  redis.call("ZREMRANGEBYSCORE", KEYS[k], "-inf", ARGV[3])
  at = at + 1 + count
end
return 0
`;

/** A model's final vote as the throughput figures count it. */
export interface FinishedVote {
  provider: string;
  /** Unique per vote (its job id and attempt), so two votes never share an entry. */
  voteId: string;
  latencyMs: number;
  ok: boolean;
}

/** Records the throughput facts; a failure to record never fails a decision or a vote (it is reported to `onError`). */
export class ThroughputRecorder {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /**
   * The aggregator wrote a decision (counted once: a rerun of a written decision is not), with the
   * votes its models returned (success or error; not those early quorum skipped).
   */
  async decisionWritten(votes: readonly FinishedVote[], now = Date.now()): Promise<void> {
    const byProvider = new Map<string, (string | number)[]>();
    for (const vote of votes) {
      const members = byProvider.get(vote.provider) ?? [];
      members.push(now, `${Math.max(0, Math.round(vote.latencyMs))}:${vote.ok ? "ok" : "error"}:${vote.voteId}`);
      byProvider.set(vote.provider, members);
    }
    const keys = [throughputFinishedKey(this.prefix, Math.floor(now / 1000)), ...[...byProvider.keys()].map((provider) => throughputVotesKey(this.prefix, provider))];
    const args: (string | number)[] = [FINISHED_TTL_SECONDS, THROUGHPUT_WINDOW_MS, `(${now - THROUGHPUT_WINDOW_MS}`];
    for (const members of byProvider.values()) args.push(members.length, ...members);
    try {
      await this.redis.eval(RECORD_SCRIPT, keys.length, ...keys, ...args);
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
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly providers: readonly string[],
    /** The queues' counts: jobs waiting, and decisions in flight. */
    private readonly queues: QueueInspector,
  ) {}

  /**
   * The figures at `now`: decisions finished in the last whole second, decisions in flight, jobs
   * waiting per queue, and each provider's votes, latency p50/p95 (all final votes, errors
   * included: a provider that times out is slow) and error rate over the last minute.
   */
  async read(now = Date.now()): Promise<ThroughputEvent> {
    const pipeline = this.redis.pipeline().get(throughputFinishedKey(this.prefix, Math.floor(now / 1000) - 1));
    for (const provider of this.providers) pipeline.zrangebyscore(throughputVotesKey(this.prefix, provider), now - THROUGHPUT_WINDOW_MS, "+inf");
    const [results, waiting, inFlight] = await Promise.all([pipeline.exec(), this.queues.waiting(), this.queues.decisionsInFlight()]);
    const values = (results ?? []).map(([error, value]) => {
      if (error) throw error;
      return value;
    });
    const providers: ThroughputEvent["providers"] = {};
    this.providers.forEach((provider, i) => {
      const members = values[1 + i] as string[];
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
      decisions_in_flight: inFlight,
      queue_waiting: waiting,
      providers,
    };
  }
}
