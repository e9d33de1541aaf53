import type { AggregateJob } from "@sd/contracts";
import { aggregateJob as queuedDecision } from "@sd/queue/testing";

/**
 * A decision as the gateway enqueues it, for tests that put one straight onto the queue: an
 * anonymous majority vote of the playground's three models unless `overrides` say otherwise.
 */
export function aggregateJob(overrides: Partial<AggregateJob> = {}): AggregateJob {
  return queuedDecision({
    question: "Should we ship on Friday?",
    categories: ["Ship", "Wait"],
    providers: ["openai", "gemini", "claude"],
    ...overrides,
  });
}
