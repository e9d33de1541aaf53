import { monthlyQuotaKey, periodCounterExpiry, usagePeriod, type Redis } from "@sd/queue";

export { nextPeriodStart, periodStart, usagePeriod } from "@sd/queue";

// Counts one request unless the month's count has reached the quota; -1 means refused. The count
// lives until a day into the next month (replicas whose clocks lag a little still find it).
const CONSUME = `
local used = tonumber(redis.call("GET", KEYS[1]) or "0")
if used >= tonumber(ARGV[1]) then return -1 end
used = redis.call("INCR", KEYS[1])
if used == 1 then redis.call("PEXPIREAT", KEYS[1], ARGV[2]) end
return used`;

// Counts N requests at once unless fewer than N remain; answers {1, used} when counted, {0, remaining} when not.
const CONSUME_MANY = `
local used = tonumber(redis.call("GET", KEYS[1]) or "0")
local count = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
if used + count > limit then return {0, math.max(0, limit - used)} end
used = redis.call("INCRBY", KEYS[1], count)
if used == count then redis.call("PEXPIREAT", KEYS[1], ARGV[3]) end
return {1, used}`;

/**
 * API requests per user per calendar month (UTC), against API_MONTHLY_QUOTA, checked and counted by
 * one Redis script so concurrent replicas never count past the quota. Redis rather than the store,
 * because every API call touches it and a store write costs a journal fsync; losing the counters
 * only ever gives users more requests, never fewer.
 */
export class MonthlyQuota {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    readonly limit: number,
  ) {}

  /** Counts one request of `userId` in the month of `at`: true when counted, false (nothing counted) past the quota. */
  async consume(userId: string, at: Date = new Date()): Promise<boolean> {
    return (await this.redis.eval(CONSUME, 1, this.key(userId, at), this.limit, periodCounterExpiry(at))) !== -1;
  }

  /**
   * Counts `count` requests of `userId` at once (a batch's decisions, checked when it is accepted),
   * or none when fewer remain this month: then answers how many do remain.
   */
  async consumeMany(userId: string, count: number, at: Date = new Date()): Promise<{ counted: true } | { counted: false; remaining: number }> {
    if (count <= 0) return { counted: true };
    const [counted, figure] = (await this.redis.eval(CONSUME_MANY, 1, this.key(userId, at), count, this.limit, periodCounterExpiry(at))) as [number, number];
    return counted === 1 ? { counted: true } : { counted: false, remaining: Number(figure) };
  }

  /** The requests counted for `userId` in the month of `at`. */
  async used(userId: string, at: Date = new Date()): Promise<number> {
    return Number((await this.redis.get(this.key(userId, at))) ?? 0);
  }

  private key(userId: string, at: Date): string {
    return monthlyQuotaKey(this.prefix, userId, usagePeriod(at));
  }
}
