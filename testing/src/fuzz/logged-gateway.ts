import { gatewayEnv, loadEnv, providersFromEnv } from "@sd/config";
import { startGateway, type Gateway } from "@sd/gateway";
import type { Store } from "@sd/store";
import { createLogger, logLevelNumber } from "@sd/telemetry";

/** One pino line as the gateway wrote it. */
export interface GatewayLogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

/** pino's levels of `info` (one line per request) and `error`. */
export const INFO_LEVEL = logLevelNumber("info");
export const ERROR_LEVEL = logLevelNumber("error");

/**
 * A gateway on the same store, Redis and settings as a running stack (as a second replica of the
 * deployment is), whose log lines (info and above: one per request, and every warning and error) are kept in `logs`: the in-process stack's
 * logger writes to stdout, where a test cannot read it, and a separate process would hold the
 * embedded store's lock so the test could not count what was written.
 */
export async function startLoggedGateway(stack: { vars: Record<string, string>; store: Store }): Promise<Gateway & { logs: GatewayLogLine[] }> {
  const vars = { ...stack.vars, PORT: "0" };
  const env = loadEnv(gatewayEnv, vars);
  const configs = new Map(providersFromEnv([...new Set([...env.PROVIDERS, env.SUGGESTION_PROVIDER])], vars).map((c) => [c.id, c]));
  const logs: GatewayLogLine[] = [];
  const logger = createLogger("fuzzed-gateway", "info", { write: (line: string) => void logs.push(JSON.parse(line) as GatewayLogLine) });
  const gateway = await startGateway(env, stack.store, { deciders: env.PROVIDERS.map((id) => configs.get(id)!), suggester: configs.get(env.SUGGESTION_PROVIDER)! }, logger);
  return { url: gateway.url, metricsUrl: gateway.metricsUrl, close: () => gateway.close(), logs };
}
