import type { BaseDocument, Collection } from "./collection";
import type { CollectionSpec } from "./collection-spec";

export type DriverKind = "mongo" | "embedded";

/** What the store needs from a driver: collections built from schemas, a health check, shutdown. */
export interface StoreDriver {
  readonly kind: DriverKind;
  openCollection<TDoc extends BaseDocument>(spec: CollectionSpec<TDoc>): Promise<Collection<TDoc>>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
