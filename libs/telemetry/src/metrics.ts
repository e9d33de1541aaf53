import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/** The process's metrics; every role registers into the same registry so one /metrics shows all. */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });
// Gauges named like counters, which `promtool check metrics` refuses; each is the sum over the `type`
// label of the gauge of the same name without `_total`, so nothing is lost.
for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"]) {
  registry.removeSingleMetric(name);
}

/** One process's metrics as JSON (`registry.getMetricsAsJSON()`), as they travel to another process. */
export type ProcessMetrics = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

const otherProcesses = new Set<() => Promise<ProcessMetrics[]>>();

/**
 * Adds the metrics of other processes (the worker processes `npm start` forks) to this process's
 * /metrics, so one scrape still shows every role. Returns the function that takes them out again.
 */
export function addOtherProcessesMetrics(source: () => Promise<ProcessMetrics[]>): () => void {
  otherProcesses.add(source);
  return () => void otherProcesses.delete(source);
}

/**
 * /metrics: this process's metrics in Prometheus text, merged with those of the processes added
 * above by each metric's aggregator (counters and histograms add up, as one process's would).
 */
export async function metricsText(): Promise<string> {
  if (otherProcesses.size === 0) return registry.metrics();
  const others = await Promise.all([...otherProcesses].map((source) => source().catch((): ProcessMetrics[] => [])));
  return AggregatorRegistry.aggregate([await registry.getMetricsAsJSON(), ...others.flat()]).metrics();
}

export const httpDuration = new Histogram({
  name: "sd_http_request_duration_seconds",
  help: "HTTP request latency by method, route and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  registers: [registry],
});

export const voteDuration = new Histogram({
  name: "sd_vote_duration_seconds",
  help: "Latency of one model call by provider and outcome",
  labelNames: ["provider", "outcome"] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 40],
  registers: [registry],
});

export const voteErrors = new Counter({
  name: "sd_vote_errors_total",
  help: "Model call failures by provider and kind (retried ones included)",
  labelNames: ["provider", "kind"] as const,
  registers: [registry],
});

export const decisionsTotal = new Counter({
  name: "sd_decisions_total",
  help: "Finished decisions by outcome (decided, no_decision)",
  labelNames: ["outcome"] as const,
  registers: [registry],
});

/** `deployment` is the QUEUE_PREFIX: deployments sharing one Redis have queues of the same names. */
export const queueDepth = new Gauge({
  name: "sd_queue_jobs",
  help: "Jobs per queue and state, read when scraped",
  labelNames: ["deployment", "queue", "state"] as const,
  registers: [registry],
});

/** Every `kind` of sd_vote_errors_total: a provider's failure kinds, and the worker's own two. */
export const VOTE_ERROR_KINDS = [
  "rate_limited",
  "server",
  "timeout",
  "network",
  "invalid_answer",
  "malformed",
  "client",
  "auth",
  "deadline",
  "image_expired",
] as const;

/**
 * Exports the vote series of these providers at 0 before the first vote, so rates and error
 * shares read 0 on a healthy day instead of "No data" until something fails.
 */
export function startVoteMetricsAtZero(providers: readonly string[]): void {
  for (const provider of providers) {
    for (const outcome of ["success", "error"]) voteDuration.zero({ provider, outcome });
    for (const kind of VOTE_ERROR_KINDS) voteErrors.inc({ provider, kind }, 0);
  }
}

/** The same for the aggregator's decisions: both outcomes exist from the start. */
export function startDecisionMetricsAtZero(): void {
  for (const outcome of ["decided", "no_decision"]) decisionsTotal.inc({ outcome }, 0);
}
