import { allInOneEnv, loadEnv } from "@sd/config";
import { Lifecycle } from "@sd/runtime";
import type { Store } from "@sd/store";
import { createLogger } from "@sd/telemetry";
import { startAllInOne } from "@sd/all-in-one";

export interface InProcessStack {
  url: string;
  /** The gateway's METRICS_PORT listener: /metrics, /health, /ready. */
  metricsUrl: string;
  store: Store;
  vars: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the all-in-one roles in this process with the given environment (see `testEnv`). */
export async function startStack(vars: Record<string, string>): Promise<InProcessStack> {
  const env = loadEnv(allInOneEnv, vars);
  const lifecycle = new Lifecycle(createLogger("test", env.LOG_LEVEL));
  try {
    const { url, metricsUrl, store } = await startAllInOne(env, vars, lifecycle);
    if (!url || !metricsUrl || !store) throw new Error("the stack has no gateway role");
    return { url, metricsUrl, store, vars, close: () => lifecycle.shutdown("test finished") };
  } catch (error) {
    await lifecycle.shutdown("failed to start");
    throw error;
  }
}
