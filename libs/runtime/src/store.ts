import { describeStorageEvent, openStore, StorageEvents, type StorageEvent, type Store } from "@sd/store";
import type { Readiness } from "./health-server";
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
  // Listening before the open: journal damage is found while the store opens.
  const events = new StorageEvents().on("storage", (event) => logStorageEvent(lifecycle.logger, event));
  const store = await openStore({ mongoUrl: env.MONGO_URL ?? null, dataDir: env.DATA_DIR, events });
  lifecycle.logger.info({ driver: store.driver, dataDir: store.driver === "embedded" ? env.DATA_DIR : undefined }, "store open");
  lifecycle.onShutdown("store", () => store.close());
  return store;
}

/** Damage and a full disk are errors an operator must see; recovery and acknowledgement are worth a line too. */
function logStorageEvent(logger: Lifecycle["logger"], event: StorageEvent): void {
  const message = describeStorageEvent(event);
  switch (event.kind) {
    case "journal-damaged":
      logger.error({ journal: event.journal, line: event.line, bytes: event.bytes, kept_in: event.keptIn }, message);
      return;
    case "unwritable":
      logger.error({ reason: event.reason }, message);
      return;
    case "writable-again":
      logger.warn({ unwritable_for_ms: event.unwritableForMs }, message);
      return;
    case "damage-acknowledged":
      logger.warn({ files: event.files }, message);
      return;
  }
}

/**
 * The store's part of /ready: it must answer, and writes must fit (a full disk fails readiness
 * with its reason); journal damage not yet acknowledged makes it "degraded" (see `readyAnswer`).
 */
export async function storeReadiness(store: Store): Promise<Readiness> {
  await store.ping();
  const refusal = store.storage.refusal();
  if (refusal) throw refusal;
  const damage = await store.storage.damage();
  return damage.length === 0 ? {} : { degraded: damageSummary(damage) };
}

/** What /ready and the admin health say about kept journal damage, naming the files. */
export function damageSummary(files: readonly string[]): string {
  return (
    `Journal damage was set aside at start in ${files.join(", ")}. ` +
    "Look at it, then acknowledge it: POST /api/admin/storage/acknowledge-damage as an admin, or move the file out of DATA_DIR."
  );
}
