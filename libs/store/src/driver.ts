import type { BaseDocument, Collection } from "./collection";
import type { CollectionSpec } from "./collection-spec";
import type { StorageHealth } from "./storage-health";

export type DriverKind = "mongo" | "embedded";

/** What the store needs from a driver: collections built from schemas, health checks, shutdown. */
export interface StoreDriver {
  readonly kind: DriverKind;
  openCollection<TDoc extends BaseDocument>(spec: CollectionSpec<TDoc>): Promise<Collection<TDoc>>;
  ping(): Promise<void>;
  readonly storage: StorageHealth;
  close(): Promise<void>;
}
