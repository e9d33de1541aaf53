import { openStore, type Store } from "@sd/store";
import type { Lifecycle } from "./lifecycle";

/**
 * Opens the store a process needs: MongoDB when MONGO_URL is set, otherwise the embedded store,
 * which only the all-in-one process (gateway and aggregator together) may use unless the operator
 * opts in with EMBEDDED_STORE_SPLIT for a single host.
 */
export async function openStoreFor(
  env: { MONGO_URL?: string; DATA_DIR: string },
  embeddedAllowed: boolean,
  lifecycle: Lifecycle,
): Promise<Store> {
  if (!env.MONGO_URL && !embeddedAllowed) {
    throw new Error(
      "MONGO_URL is required when the services run separately: the embedded store (the default of `npm start`) " +
        "serves the all-in-one process only. Set MONGO_URL=mongodb://host:27017/smart_decision.",
    );
  }
  const store = await openStore({ mongoUrl: env.MONGO_URL ?? null, dataDir: env.DATA_DIR });
  lifecycle.logger.info({ driver: store.driver, dataDir: store.driver === "embedded" ? env.DATA_DIR : undefined }, "store open");
  lifecycle.onShutdown("store", () => store.close());
  return store;
}
