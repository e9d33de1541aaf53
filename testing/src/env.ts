import { emulatorBaseUrl } from "@sd/provider-emulator";
import { testDataDir, testQueuePrefix } from "./leftovers";

/**
 * Environment of a test deployment: its own Redis key prefix and data directory (so test files
 * never see each other's jobs; both are removed after the test file), the three default
 * providers pointed at a provider emulator, and short retry and lock timings.
 */
export function testEnv(emulatorUrl: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: "test",
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    QUEUE_PREFIX: testQueuePrefix(),
    DATA_DIR: testDataDir(),
    PORT: "0",
    HOST: "127.0.0.1",
    HEALTH_PORT: "0",
    METRICS_PORT: "0",
    // The playground's three models (the default is all eight marketed ones); tests that need others name them.
    PROVIDERS: "openai,gemini,claude",
    // The workers in the stack's own process (startStack runs it inside the test); the drills and
    // the tests of `npm start`'s shape ask for forked ones.
    WORKER_PROCESSES: "0",
    RATE_LIMIT_PER_MINUTE: "10000",
    FORMS_RATE_LIMIT_PER_HOUR: "10000",
    VOTE_BACKOFF_MS: "50",
    JOB_LOCK_MS: "2000",
    DECISION_TIMEOUT_MS: "20000",
    // Room for a vote retried by a replacement worker process on a loaded machine.
    VOTE_DEADLINE_MS: "15000",
    OPENAI_API_KEY: "test-key",
    OPENAI_BASE_URL: emulatorBaseUrl(emulatorUrl, "openai"),
    GEMINI_API_KEY: "test-key",
    GEMINI_BASE_URL: emulatorBaseUrl(emulatorUrl, "gemini"),
    CLAUDE_API_KEY: "test-key",
    CLAUDE_BASE_URL: emulatorBaseUrl(emulatorUrl, "anthropic"),
    OPENAI_TIMEOUT_MS: "2000",
    GEMINI_TIMEOUT_MS: "2000",
    CLAUDE_TIMEOUT_MS: "2000",
    ...overrides,
  };
}

/**
 * `vars` without any provider's API key or base URL: every model is simulated by the emulator the
 * product starts itself, as a keyless `npm start` runs.
 */
export function keylessEnv(vars: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(vars).filter(([name]) => !/_(API_KEY|BASE_URL)$/.test(name)));
}
