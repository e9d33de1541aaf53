import type { Redis } from "ioredis";
import { tokenBudgetKey } from "./queue-keys";
import { MINUTE_MS } from "./rate-limit";

/**
 * A token bucket per provider holding a minute's worth of its tokens-per-minute limit, refilled
 * continuously. Taking more than it holds grants nothing and answers how long until it would. A
 * forced take settles an estimate: it gives back what the estimate took too much, or charges what
 * it missed even into debt, which delays the next calls instead of overrunning the vendor.
 * KEYS[1] the bucket; ARGV: tokens per minute, tokens to take, now (ms), "1" to force. Returns ms
 * to wait (0: taken).
 */
const TAKE_SCRIPT = `
local perMinute = tonumber(ARGV[1])
local wanted = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local force = ARGV[4] == "1"
local state = redis.call("HMGET", KEYS[1], "tokens", "at")
local tokens = tonumber(state[1]) or perMinute
local at = tonumber(state[2]) or now
tokens = math.min(perMinute, tokens + math.max(0, now - at) * perMinute / ${MINUTE_MS})
local waitMs = 0
if force or tokens >= wanted or (tokens >= perMinute and wanted > perMinute) then
  tokens = tokens - wanted
else
  waitMs = math.ceil((math.min(wanted, perMinute) - tokens) * ${MINUTE_MS} / perMinute)
end
redis.call("HSET", KEYS[1], "tokens", tostring(tokens), "at", tostring(now))
redis.call("PEXPIRE", KEYS[1], ${2 * MINUTE_MS})
return waitMs
`;

/** Tokens per minute shared by every worker of a provider, in every process (counted in Redis). */
export class TokenBudget {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** The clock, so tests can move time. */
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes `tokens` from the provider's budget of `perMinute`; resolves with 0 when taken, else the
   * ms until they would be there (nothing is taken then). A call larger than a whole minute's budget
   * is let through once the bucket is full, or it could never run.
   */
  async take(provider: string, perMinute: number, tokens: number): Promise<number> {
    return Number(await this.redis.eval(TAKE_SCRIPT, 1, this.key(provider), perMinute, Math.ceil(tokens), this.now(), "0"));
  }

  /** Settles a call's estimate with what it used: `usedTokens - estimatedTokens` more (or fewer) taken. */
  async correct(provider: string, perMinute: number, difference: number): Promise<void> {
    if (difference === 0) return;
    await this.redis.eval(TAKE_SCRIPT, 1, this.key(provider), perMinute, Math.round(difference), this.now(), "1");
  }

  private key(provider: string): string {
    return tokenBudgetKey(this.prefix, provider);
  }
}
