import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { useTestDeployment } from "./test-deployment";
import { TokenBudget } from "./token-budget";

const { redis, prefix } = useTestDeployment("token-budget");

/** Two workers' budgets on one Redis, on a clock the test moves. */
function budgets() {
  const clock = { now: 1_000_000 };
  const now = () => clock.now;
  const provider = `p-${randomUUID().slice(0, 8)}`;
  return { clock, provider, first: new TokenBudget(redis, prefix, now), second: new TokenBudget(redis, prefix, now) };
}

describe("a provider's tokens per minute, shared by its workers", () => {
  it("grants a minute's worth across every worker, then answers how long until the next call fits", async () => {
    const { clock, provider, first, second } = budgets();
    expect(await first.take(provider, 6000, 4000)).toBe(0);
    expect(await second.take(provider, 6000, 2000)).toBe(0);
    // Empty: 1,000 tokens come back in 10 s at 6,000 a minute, and nothing was taken meanwhile.
    expect(await first.take(provider, 6000, 1000)).toBe(10_000);
    clock.now += 5000;
    expect(await second.take(provider, 6000, 1000)).toBe(5000);
    clock.now += 5000;
    expect(await second.take(provider, 6000, 1000)).toBe(0);
  });

  it("settles an estimate with the tokens used: what it missed is owed, what it took too much comes back", async () => {
    const { clock, provider, first } = budgets();
    expect(await first.take(provider, 6000, 6000)).toBe(0);
    // The call used 600 more than estimated: the budget owes them, so a 100-token call waits 7 s.
    await first.correct(provider, 6000, 600);
    expect(await first.take(provider, 6000, 100)).toBe(7000);
    // Another call's estimate was 1,200 too high: given back, the 100 fit at once.
    await first.correct(provider, 6000, -1200);
    expect(await first.take(provider, 6000, 100)).toBe(0);
    clock.now += 60_000;
    // A full minute refills to the limit and no further.
    expect(await first.take(provider, 6000, 6000)).toBe(0);
    expect(await first.take(provider, 6000, 1)).toBe(10);
  });

  it("lets a call larger than a whole minute's budget through once the budget is full, or it could never run", async () => {
    const { clock, provider, first } = budgets();
    expect(await first.take(provider, 1000, 400)).toBe(0);
    // It waits for a full bucket: 400 tokens, 24 s at 1,000 a minute.
    expect(await first.take(provider, 1000, 1500)).toBe(24_000);
    clock.now += 24_000;
    expect(await first.take(provider, 1000, 1500)).toBe(0);
  });
});
