import { allInOneEnv, loadEnv, providersFromEnv, type AllInOneEnv } from "@sd/config";
import { simulatedLatencies } from "@sd/runtime";
import type { LogLine } from "@sd/testing/processes";

/** What the product runs with, read from the environment it was given. */
export interface ProductSettings {
  /** As the product's own schema reads that environment: every variable not given at its default. */
  env: AllInOneEnv;
  /** The default panel (a request that names none), each model with its simulated answer time, ms. */
  panel: { id: string; latencyMs: number }[];
  /** The panel's slowest model, ms: a decision waits for every vote. */
  slowestMs: number;
}

/**
 * The product's settings for `given`, parsed as the all-in-one parses them, so the report states the
 * defaults in force rather than what the benchmark believes them to be; the simulated latencies
 * are the product's own (`simulatedLatencies`), and each capacity row also times decisions made alone.
 */
export function productSettings(given: Record<string, string>): ProductSettings {
  const env = loadEnv(allInOneEnv, given);
  const ids = [...new Set([...env.PROVIDERS, env.SUGGESTION_PROVIDER])];
  const latencies = simulatedLatencies(providersFromEnv(ids, given).filter((config) => config.simulated), env.SIMULATED_LATENCY_MS);
  const latency = (id: string) => latencies.get(id) ?? Number.NaN;
  const panel = env.PANEL.map((id) => ({ id, latencyMs: latency(id) }));
  return { env, panel, slowestMs: Math.max(...panel.map((model) => model.latencyMs)) };
}

/** The variables of a user's start that bear on capacity, in the order printed. */
const CAPACITY_VARIABLES = [
  "NODE_ENV",
  "LOG_LEVEL",
  "WORKER_PROCESSES",
  "WORKER_CONCURRENCY",
  "AGGREGATOR_CONCURRENCY",
  "MAX_IN_FLIGHT_DECISIONS",
  "DECISION_TIMEOUT_MS",
  "VOTE_ATTEMPTS",
  "PROVIDERS",
  "PANEL",
];

/**
 * Those settings as NAME=value. Read by name, as the schema changes with the product: a variable
 * it does not know is left out, and one it leaves unset (for the product to derive) is said so.
 */
export function capacitySettings(env: AllInOneEnv): string[] {
  const values: Record<string, unknown> = env;
  return CAPACITY_VARIABLES.filter((name) => name in allInOneEnv.shape).map((name) => {
    const value = values[name];
    return `${name}=${value === undefined ? "unset (the product derives it)" : Array.isArray(value) ? value.join(",") : String(value)}`;
  });
}

/** What the product's start log (LOG_LEVEL=info, its default) says of its store and models. */
export function startLogFacts(lines: readonly LogLine[]): string[] {
  const find = (msg: string) => lines.find((line) => line.msg?.startsWith(msg) === true);
  const list = (line: LogLine | undefined) => (Array.isArray(line?.providers) ? (line.providers as unknown[]).map(String) : []);
  const store = find("store open");
  // Once per process that runs provider workers (the all-in-one itself, or each one it forks).
  const started = lines.filter((line) => line.msg === "provider workers started");
  const workers = list(started[0]);
  const simulated = list(find("no API key for these providers"));
  return [
    `store: ${typeof store?.driver === "string" ? store.driver : "not in the start log"}`,
    `provider workers started in ${started.length} process(es): ${workers.length === 0 ? "none in the start log" : workers.join(", ")}`,
    `simulated by the built-in emulator: ${simulated.length === 0 ? "none said so" : `${simulated.length} (${simulated.join(", ")})`}`,
  ];
}
