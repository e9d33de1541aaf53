import { randomUUID } from "node:crypto";
import type { AggregateJob } from "@sd/contracts";

// A tool of tests and benchmarks that count what reaches Redis, kept out of the product's exports.
export { openRedisMonitor } from "./redis-monitor";

/** A decision as the gateway enqueues it, for tests that put one straight onto the queue: anonymous, no panel unless `overrides` name one. */
export function aggregateJob(overrides: Partial<AggregateJob> = {}): AggregateJob {
  return {
    decision_id: randomUUID(),
    request_id: null,
    question: "Ship it?",
    categories: ["Yes", "No"],
    images: [],
    providers: [],
    ensemble_mode: "majority_voting",
    received_at: Date.now(),
    is_authenticated: false,
    user_id: null,
    user_email: null,
    user_ip: null,
    api_key_id: null,
    ...overrides,
  };
}
