export { openStore, type OpenStoreOptions, type Store } from "./store";
export type { DriverKind } from "./driver";
export * from "./decisions";
export * from "./waitlist";
export * from "./applications";
export type { BaseDocument, Collection, Filter, FindOptions, Pipeline, SortSpec, Update, UpdateOptions, UpdateResult } from "./collection";
export { DuplicateKeyError, InvalidUpdateError, isDuplicateKeyError, DUPLICATE_KEY_CODE } from "./errors";
export { EmbeddedStoreLockedError } from "./drivers/embedded/data-dir-lock";
export { JournalCorruptError } from "./drivers/embedded/journal-replay";
