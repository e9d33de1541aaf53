import type { Redis } from "ioredis";
import { apiKeyUsageKey } from "./queue-keys";
import { periodCounterExpiry, usagePeriod } from "./usage-period";

/** An API key's month so far: the calls made with it and what its decisions cost. */
export interface ApiKeyMonth {
  requests: number;
  spend_usd: number;
}

/**
 * Spend is kept in whole nano-dollars (1e-9 USD) so concurrent additions are exact integer
 * increments (HINCRBY), where HINCRBYFLOAT would drift; a decision's cost is far above that grain.
 */
const NANO_USD_PER_USD = 1e9;
const REQUESTS = "requests";
const SPEND = "spend_nano_usd";

// Adds to one field of the month's hash and makes sure the hash expires after its month.
const ADD = `
local total = redis.call("HINCRBY", KEYS[1], ARGV[1], ARGV[2])
redis.call("PEXPIREAT", KEYS[1], ARGV[3])
return total`;

/**
 * Each API key's requests and spend per calendar month (UTC), in Redis like the owner's monthly
 * quota (`MonthlyQuota`): the gateway counts a request as it lets it through and checks the spend
 * limit before a decision starts; the aggregator adds a decision's cost once it is stored. Both
 * are atomic increments, so any number of replicas count exactly. Spend is added when a decision
 * ends, so a limit can be passed by at most the cost of the key's decisions in flight when it was
 * reached. Losing the counters (a Redis without persistence restarting) only ever lets a key
 * spend more, never refuses it wrongly.
 */
export class ApiKeyUsage {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Counts one call made with the key in the month of `at`. */
  async countRequest(apiKeyId: string, at: Date = new Date()): Promise<void> {
    await this.add(apiKeyId, REQUESTS, 1, at);
  }

  /** Counts `count` calls at once: a batch's decisions, counted when it is accepted. */
  async countRequests(apiKeyId: string, count: number, at: Date = new Date()): Promise<void> {
    if (count > 0) await this.add(apiKeyId, REQUESTS, count, at);
  }

  /** Adds a decision's cost (US dollars) to the key's spend in the month of `at` (the decision's time). */
  async addSpend(apiKeyId: string, usd: number, at: Date): Promise<void> {
    const nanos = Math.round(usd * NANO_USD_PER_USD);
    if (nanos > 0) await this.add(apiKeyId, SPEND, nanos, at);
  }

  /** The key's spend in the month of `at`, in US dollars. */
  async spendUsd(apiKeyId: string, at: Date = new Date()): Promise<number> {
    return Number((await this.redis.hget(this.key(apiKeyId, at), SPEND)) ?? 0) / NANO_USD_PER_USD;
  }

  /** Each key's month of `at` (zeros for a key with none), read in one round trip. */
  async months(apiKeyIds: readonly string[], at: Date = new Date()): Promise<Map<string, ApiKeyMonth>> {
    const pipeline = this.redis.pipeline();
    for (const id of apiKeyIds) pipeline.hmget(this.key(id, at), REQUESTS, SPEND);
    const answers = apiKeyIds.length === 0 ? [] : ((await pipeline.exec()) ?? []);
    return new Map(
      apiKeyIds.map((id, i) => {
        const [error, fields] = answers[i] ?? [null, null];
        if (error) throw error;
        const [requests, spend] = (fields as (string | null)[] | null) ?? [null, null];
        return [id, { requests: Number(requests ?? 0), spend_usd: Number(spend ?? 0) / NANO_USD_PER_USD }];
      }),
    );
  }

  private async add(apiKeyId: string, field: string, by: number, at: Date): Promise<void> {
    await this.redis.eval(ADD, 1, this.key(apiKeyId, at), field, by, periodCounterExpiry(at));
  }

  private key(apiKeyId: string, at: Date): string {
    return apiKeyUsageKey(this.prefix, apiKeyId, usagePeriod(at));
  }
}
