import { testEnv } from "../env";

/** Waits that grow with the number of decisions in flight, so a 1,000-decision chaos run is not cut by its own limits. */
export interface FaultTiming {
  /** DECISION_TIMEOUT_MS: the longest an HTTP client waits. */
  decisionTimeoutMs: number;
  /** VOTE_DEADLINE_MS: below the decision timeout, room for a backlog and a replaced worker. */
  voteDeadlineMs: number;
}

export function faultTiming(size: number): FaultTiming {
  const decisionTimeoutMs = 20_000 + size * 40;
  return { decisionTimeoutMs, voteDeadlineMs: decisionTimeoutMs - 5000 };
}

/**
 * `testEnv` for a fault drill of `size` decisions (pass REDIS_URL: the drills run on a private
 * redis-server): its own QUEUE_PREFIX and DATA_DIR, limits that
 * never refuse the drill's own load, enough workers that the decisions are in flight together (in a
 * worker process an all-in-one one forks, as `npm start` runs). REDIS_COMMAND_TIMEOUT_MS stays at the
 * product's default: no drill hangs Redis, and a burst of 1,000 decisions keeps a busy Redis
 * answering the request path for more than a second (its clients were then told "temporarily
 * unavailable", which the drills count as not reaching a model).
 */
export function faultEnv(emulatorUrl: string, size: number, overrides: Record<string, string> = {}): Record<string, string> {
  const timing = faultTiming(size);
  return testEnv(emulatorUrl, {
    RATE_LIMIT_PER_MINUTE: "1000000",
    RATE_LIMIT_MB_PER_MINUTE: "100000",
    DECISION_TIMEOUT_MS: String(timing.decisionTimeoutMs),
    VOTE_DEADLINE_MS: String(timing.voteDeadlineMs),
    // Every decision's votes are asked at once: none waits in a queue behind the others.
    WORKER_CONCURRENCY: String(Math.max(32, size)),
    // A gateway whose workers run elsewhere (drill a) admits 500 by default; the drill's decisions all go in.
    MAX_IN_FLIGHT_DECISIONS: String(Math.max(500, size)),
    // The shape of `npm start`: an all-in-one process forks its provider workers.
    WORKER_PROCESSES: "1",
    AGGREGATOR_CONCURRENCY: "32",
    // The drills script slow answers (seconds); a model is cut only where a drill says so.
    OPENAI_TIMEOUT_MS: "15000",
    GEMINI_TIMEOUT_MS: "15000",
    CLAUDE_TIMEOUT_MS: "15000",
    ...overrides,
  });
}
