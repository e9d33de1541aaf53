import { describe, expect, it } from "vitest";
import type { ThroughputEvent } from "@sd/contracts";
import {
  activityActor,
  activityOutcome,
  addSample,
  checkTitle,
  checkValue,
  dailyTrend,
  finishedInWindow,
  formatLatency,
  formatMs,
  formatPercentage,
  formatRate,
  healthTone,
  NO_VALID_DECISION,
  orderedChecks,
  percentOf,
  periodLabel,
  sparklinePoints,
  statusBanner,
  topCategories,
  totalMinutes,
  visibleCategories,
} from "./format";

const sample = (at: string, decisionsPerSecond = 0, inFlight = 0): ThroughputEvent => ({
  at,
  decisions_per_second: decisionsPerSecond,
  decisions_in_flight: inFlight,
  queue_waiting: {},
  providers: {},
});

describe("period selects", () => {
  it("words the periods Last Day, Last Week, Last Month", () => {
    expect(["day", "week", "month"].map((period) => periodLabel(period as "day"))).toEqual(["Last Day", "Last Week", "Last Month"]);
  });
});

describe("recent activity items", () => {
  it("shows the first 3 categories and '+N more' for the rest", () => {
    expect(visibleCategories(["A", "B"])).toEqual({ shown: ["A", "B"], more: null });
    expect(visibleCategories(["A", "B", "C"])).toEqual({ shown: ["A", "B", "C"], more: null });
    expect(visibleCategories(["A", "B", "C", "D", "E"])).toEqual({ shown: ["A", "B", "C"], more: "+2 more" });
  });

  it("counts a decision with any model error as errored, even when it has a final decision", () => {
    expect(activityOutcome({ error_details: { claude: "timeout" }, final_decision: "Yes" })).toEqual({ kind: "error", text: "claude: timeout" });
    expect(activityOutcome({ error_details: { claude: "timeout", gemini: "quota" }, final_decision: null })).toEqual({ kind: "error", text: "claude: timeout; gemini: quota" });
  });

  it("falls back to the specification's error text when no model said why", () => {
    expect(activityOutcome({ error_details: { claude: "" }, final_decision: null })).toEqual({ kind: "error", text: NO_VALID_DECISION });
    expect(activityOutcome({ error_details: {}, final_decision: null })).toEqual({ kind: "error", text: NO_VALID_DECISION });
    expect(NO_VALID_DECISION).toBe("No valid decision could be reached from any LLM provider");
  });

  it("shows the decision of a successful one", () => {
    expect(activityOutcome({ error_details: {}, final_decision: "Go" })).toEqual({ kind: "decision", text: "Go" });
  });

  it("names the user by email, else by IP", () => {
    expect(activityActor({ user_email: "ann@example.com", user_ip: "10.0.0.1" })).toBe("ann@example.com");
    expect(activityActor({ user_email: null, user_ip: "10.0.0.1" })).toBe("10.0.0.1");
    expect(activityActor({ user_email: null, user_ip: null })).toBe("Unknown");
  });
});

describe("health status", () => {
  it("colours healthy green, warning yellow, critical red and anything else gray", () => {
    expect(healthTone("healthy")).toBe("green");
    expect(healthTone("warning")).toBe("yellow");
    expect(healthTone("critical")).toBe("red");
    expect(healthTone("degraded")).toBe("gray");
    expect(healthTone(undefined)).toBe("gray");
  });

  it("shows the banner only when the status is not healthy", () => {
    expect(statusBanner("healthy")).toBeNull();
    expect(statusBanner(undefined)).toBeNull();
    expect(statusBanner("warning")).toBe("System Status: Warning");
    expect(statusBanner("critical")).toBe("System Status: Critical");
  });

  it("lists Database and Activity first, then the other checks by name", () => {
    const check = { status: "healthy" as const, value: 1, message: "" };
    const order = orderedChecks({ workers: check, activity: check, redis: check, database: check, error_rate: check }).map(([name]) => name);
    expect(order).toEqual(["database", "activity", "error_rate", "redis", "workers"]);
    expect(checkTitle("queue_backlog")).toBe("Queue Backlog");
    expect([checkValue(null), checkValue(true), checkValue(12345), checkValue("up")]).toEqual(["n/a", "yes", "12,345", "up"]);
  });
});

describe("overview and trends figures", () => {
  it("keeps only the last 7 days, each bar scaled to the busiest", () => {
    const days = Array.from({ length: 9 }, (_, index) => ({ date: `2025-09-0${index + 1}`, count: index }));
    const trend = dailyTrend(days);
    expect(trend.map((day) => day.date)).toEqual(["2025-09-03", "2025-09-04", "2025-09-05", "2025-09-06", "2025-09-07", "2025-09-08", "2025-09-09"]);
    expect(trend.at(-1)?.share).toBe(1);
    expect(trend[0]?.share).toBeCloseTo(2 / 8);
    expect(dailyTrend([{ date: "2025-09-01", count: 0 }])[0]?.share).toBe(0);
  });

  it("shows at most 5 top categories", () => {
    const top = topCategories(["A", "B", "C", "D", "E", "F"].map((category, index) => ({ category, count: 10 - index })));
    expect(top.map((entry) => entry.category)).toEqual(["A", "B", "C", "D", "E"]);
    expect(top[4]?.share).toBeCloseTo(6 / 10);
  });

  it("words percentages, times and totals", () => {
    expect(percentOf(1, 3)).toBe("33.3%");
    expect(percentOf(0, 0)).toBe("0%");
    expect(formatPercentage(33.33)).toBe("33.33%");
    expect(formatPercentage(0)).toBe("0%");
    expect(totalMinutes(750)).toBe("12.5 min total");
    expect(formatMs(1234.4)).toBe("1,234ms");
    expect(formatLatency(null)).toBe("—");
    expect(formatLatency(95.6)).toBe("96ms");
    expect(formatRate(0.125)).toBe("12.5%");
  });
});

describe("live throughput samples", () => {
  it("keeps the newest samples in order, at most the window", () => {
    let samples: ThroughputEvent[] = [];
    for (let second = 0; second < 5; second++) samples = addSample(samples, sample(new Date(Date.UTC(2025, 0, 1, 0, 0, second)).toISOString(), second), 3);
    expect(samples.map((entry) => entry.decisions_per_second)).toEqual([2, 3, 4]);
    // A sample older than the last one (a late delivery) does not scramble the chart.
    expect(addSample(samples, sample("2025-01-01T00:00:00.000Z", 9), 3)).toEqual(samples);
    expect(finishedInWindow(samples)).toBe(9);
  });

  it("draws an idle system as a flat line at the bottom", () => {
    expect(sparklinePoints([0, 0, 0], 100, 50)).toBe("0,50 50,50 100,50");
    expect(sparklinePoints([0, 2, 4], 100, 40)).toBe("0,40 50,20 100,0");
    expect(sparklinePoints([], 100, 40)).toBe("");
  });
});
