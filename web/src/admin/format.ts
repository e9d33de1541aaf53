import type { AdminPeriod, HealthCheck, RecentDecision, ThroughputEvent, UsageStats } from "@sd/contracts";

/**
 * How the admin dashboard words and shapes its figures, as
 * pure functions so every rule is unit-tested.
 */

/** The period selects' options, in the order shown. */
export const PERIOD_OPTIONS: readonly { value: AdminPeriod; label: string }[] = [
  { value: "day", label: "Last Day" },
  { value: "week", label: "Last Week" },
  { value: "month", label: "Last Month" },
];

/** Dashboard limits. */
export const TOP_CATEGORIES_SHOWN = 5;
export const DAILY_TREND_DAYS = 7;
export const RECENT_CATEGORIES_SHOWN = 3;

/** The error text of a failed decision whose models left no message. */
export const NO_VALID_DECISION = "No valid decision could be reached from any LLM provider";

export const periodLabel = (period: AdminPeriod): string => PERIOD_OPTIONS.find((option) => option.value === period)?.label ?? period;

/** The first three categories, and '+N more' for the rest (null when none is hidden). */
export function visibleCategories(categories: readonly string[]): { shown: string[]; more: string | null } {
  const hidden = categories.length - RECENT_CATEGORIES_SHOWN;
  return { shown: categories.slice(0, RECENT_CATEGORIES_SHOWN), more: hidden > 0 ? `+${hidden} more` : null };
}

export type ActivityOutcome = { kind: "error"; text: string } | { kind: "decision"; text: string } | { kind: "none" };

/**
 * A recent decision's outcome: errored when any model reported an error
 * (the ERROR badge with the errors' text, or the fallback), else its final decision.
 */
export function activityOutcome(decision: Pick<RecentDecision, "error_details" | "final_decision">): ActivityOutcome {
  const errors = Object.entries(decision.error_details).filter(([, text]) => text.trim() !== "");
  if (Object.keys(decision.error_details).length > 0) {
    return { kind: "error", text: errors.length > 0 ? errors.map(([model, text]) => `${model}: ${text}`).join("; ") : NO_VALID_DECISION };
  }
  if (decision.final_decision) return { kind: "decision", text: decision.final_decision };
  // Neither an error nor a decision (e.g. still running): the spec's fallback says it best.
  return { kind: "error", text: NO_VALID_DECISION };
}

/** Who made a recent decision: the user's email, else the IP, else 'Unknown'. */
export const activityActor = (decision: Pick<RecentDecision, "user_email" | "user_ip">): string => decision.user_email ?? decision.user_ip ?? "Unknown";

export type HealthTone = "green" | "yellow" | "red" | "gray";

/** Health status colours: healthy green, warning yellow, critical red; anything else gray. */
export function healthTone(status: string | null | undefined): HealthTone {
  switch (status) {
    case "healthy":
      return "green";
    case "warning":
      return "yellow";
    case "critical":
      return "red";
    default:
      return "gray";
  }
}

/** The banner's text, or null when the system is healthy (or its health is not known). */
export function statusBanner(status: string | null | undefined): string | null {
  if (!status || status === "healthy") return null;
  return `System Status: ${status.charAt(0).toUpperCase()}${status.slice(1)}`;
}

/** The daily trend: the last 7 entries, each with its bar's share of the busiest day (0 to 1). */
export function dailyTrend(daily: UsageStats["trends"]["daily_usage"]): { date: string; count: number; share: number }[] {
  const days = daily.slice(-DAILY_TREND_DAYS);
  const busiest = Math.max(0, ...days.map((day) => day.count));
  return days.map((day) => ({ ...day, share: busiest === 0 ? 0 : day.count / busiest }));
}

/** Top categories, at most 5, each with its share of the most chosen one (0 to 1). */
export function topCategories(top: UsageStats["categories"]["top_categories"]): { category: string; count: number; share: number }[] {
  const shown = top.slice(0, TOP_CATEGORIES_SHOWN);
  const most = Math.max(0, ...shown.map((entry) => entry.count));
  return shown.map((entry) => ({ ...entry, share: most === 0 ? 0 : entry.count / most }));
}

/** `part` of `whole` as a percentage with one decimal ('0%' when there is nothing). */
export function percentOf(part: number, whole: number): string {
  if (whole <= 0) return "0%";
  return `${Number(((part / whole) * 100).toFixed(1))}%`;
}

/** A percentage the server already computed (two decimals at most). */
export const formatPercentage = (value: number): string => `${Number(value.toFixed(2))}%`;

/** A whole count with thousands separators. */
export const formatCount = (value: number): string => value.toLocaleString("en-US");

/** Total processing time in minutes, one decimal ('12.5 min total'). */
export const totalMinutes = (seconds: number): string => `${Number((seconds / 60).toFixed(1))} min total`;

/** Average processing time in whole ms. */
export const formatMs = (ms: number | null | undefined): string => (ms === null || ms === undefined ? "Unknown" : `${formatCount(Math.round(ms))}ms`);

/** A health check's name as a heading ('queue_backlog' -> 'Queue Backlog'). */
export const checkTitle = (name: string): string =>
  name
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join(" ");

/** The checks in display order: the specification's Database and Activity first, then the others by name. */
export function orderedChecks(checks: Record<string, HealthCheck>): [string, HealthCheck][] {
  const first = ["database", "activity"];
  const rank = (name: string) => (first.includes(name) ? first.indexOf(name) : first.length);
  return Object.entries(checks).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

/** A measured value as text (null: 'n/a'). */
export function checkValue(value: HealthCheck["value"]): string {
  if (value === null) return "n/a";
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") return formatCount(value);
  return value;
}

/** How many live samples the throughput chart keeps: the last 2 minutes, one a second. */
export const THROUGHPUT_WINDOW = 120;

/** The samples with `event` added, oldest first, at most THROUGHPUT_WINDOW (an out-of-order sample is dropped). */
export function addSample(samples: readonly ThroughputEvent[], event: ThroughputEvent, window = THROUGHPUT_WINDOW): ThroughputEvent[] {
  const last = samples.at(-1);
  if (last && Date.parse(event.at) <= Date.parse(last.at)) return [...samples];
  return [...samples, event].slice(-window);
}

/** Decisions finished across the samples (each sample counts the second before it). */
export const finishedInWindow = (samples: readonly ThroughputEvent[]): number => Math.round(samples.reduce((sum, sample) => sum + sample.decisions_per_second, 0));

/** A latency in ms, or '—' while there is no vote to measure. */
export const formatLatency = (ms: number | null): string => (ms === null ? "—" : `${formatCount(Math.round(ms))}ms`);

/** A 0-1 rate as a percentage with one decimal at most. */
export const formatRate = (rate: number): string => `${Number((rate * 100).toFixed(1))}%`;

/** A rate per second, two decimals at most. */
export const formatPerSecond = (value: number): string => `${Number(value.toFixed(2))}/s`;

/**
 * Points of an SVG polyline for `values` in a `width` x `height` box, scaled to `max` (at least 1, so
 * an idle system draws a flat line at the bottom rather than dividing by zero).
 */
export function sparklinePoints(values: readonly number[], width: number, height: number, max = Math.max(1, ...values)): string {
  if (values.length === 0) return "";
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  return values.map((value, index) => `${Number((index * step).toFixed(2))},${Number((height - (Math.min(value, max) / max) * height).toFixed(2))}`).join(" ");
}
