// API usage is counted per calendar month in UTC: the API key owner's monthly quota and each key's
// requests and spend. One definition of the month, shared by the gateway that checks the counters
// and the aggregator that adds a decision's cost.

/** `YYYY-MM` of `at`, in UTC. */
export function usagePeriod(at: Date): string {
  return at.toISOString().slice(0, 7);
}

/** The first instant of the month of `at` (UTC). */
export function periodStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** The first instant of the month after the one of `at` (UTC), when the month's counters start again. */
export function nextPeriodStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * When a counter of the month of `at` may go (ms since the epoch): a day into the next month, so
 * replicas whose clocks lag a little still find it.
 */
export function periodCounterExpiry(at: Date): number {
  return nextPeriodStart(at).getTime() + DAY_MS;
}
