export { openStore, type OpenStoreOptions, type Store } from "./store";
export type { DriverKind } from "./driver";
export * from "./decisions";
export * from "./waitlist";
export * from "./applications";
export * from "./users";
export * from "./refresh-tokens";
export * from "./image-assets";
export * from "./api-keys";
export * from "./api-usage";
export * from "./decision-shares";
export * from "./presets";
export * from "./batches";
export * from "./webhooks";
export type { BaseDocument, Collection, Filter, FindOptions, Pipeline, SortSpec, Update, UpdateOptions, UpdateResult } from "./collection";
export {
  DuplicateKeyError,
  InvalidUpdateError,
  isDuplicateKeyError,
  DUPLICATE_KEY_CODE,
  DocumentTooLargeError,
  isDocumentTooLargeError,
  DOCUMENT_TOO_LARGE_CODE,
  MAX_BSON_DOCUMENT_SIZE,
} from "./errors";
export { EmbeddedStoreLockedError } from "./drivers/embedded/data-dir-lock";
export { JournalCorruptError } from "./drivers/embedded/journal-replay";
export { describeStorageEvent, StorageEvents, StoreUnwritableError, type StorageEvent, type StorageHealth } from "./storage-health";
