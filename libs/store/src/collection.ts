/**
 * The driver-neutral collection interface every repository is written against.
 * Queries, updates and aggregations are plain MongoDB filter / update / pipeline objects,
 * so each is written once and runs unchanged on MongoDB (mongoose) and on the embedded driver (mingo).
 */

/** Every stored document carries a string `_id` (the entity id). */
export interface BaseDocument {
  _id: string;
}

/** A MongoDB query filter, e.g. `{ user_id: "u1", timestamp: { $gte: date } }`. */
export type Filter = Record<string, unknown>;

/** A MongoDB update: operators (`$set`, `$unset`, `$inc`, ...) or an aggregation pipeline. */
export type Update = Record<string, unknown> | Record<string, unknown>[];

/** A MongoDB aggregation pipeline. */
export type Pipeline = Record<string, unknown>[];

export type SortSpec = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: SortSpec;
  skip?: number;
  /** Maximum number of documents; omitted means no limit. */
  limit?: number;
  projection?: Record<string, 0 | 1 | boolean>;
}

export interface UpdateOptions {
  upsert?: boolean;
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  /** `_id` of the document created by an upsert, or null. */
  upsertedId: string | null;
}

/** An update of the document with this `_id` (see `Collection.upsertMany`). */
export interface IdUpdate {
  id: string;
  update: Update;
}

export interface Collection<TDoc extends BaseDocument> {
  readonly name: string;
  /** Inserts a document; rejects with `code: 11000` when a unique index is violated. */
  insertOne(doc: TDoc): Promise<void>;
  /**
   * Inserts a document that was already validated by its shared zod contract and built in exactly
   * the form the collection's schema stores (every field present, in schema order, defaults filled
   * in, Dates as Date), skipping the schema's cast and validation, which cost far more than the
   * write itself. Only for documents built in code from a parsed contract: a document carrying
   * external input goes through `insertOne`. Unique indexes (11000) and the 16 MiB limit still apply.
   */
  insertOnePrevalidated(doc: TDoc): Promise<void>;
  findOne(filter: Filter): Promise<TDoc | null>;
  /** With a projection the documents only carry the projected fields. */
  find(filter: Filter, options?: FindOptions): Promise<TDoc[]>;
  /**
   * What `find` answers, one document at a time as the caller consumes it, for reads too large to
   * hold (an export): MongoDB reads through a cursor in batches, the embedded store copies each
   * document only when it is reached. Documents written while it runs may or may not be seen.
   */
  stream(filter: Filter, options?: FindOptions): AsyncIterable<TDoc>;
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  /**
   * Updates the first document matching `filter` and resolves to that document as it was before
   * the update (null when none matched; nothing is upserted). Read and update are one atomic step,
   * so concurrent callers each see the state their own update started from.
   */
  findOneAndUpdate(filter: Filter, update: Update): Promise<TDoc | null>;
  /**
   * Applies each update to the document with its `_id`, creating the document when there is none
   * (as `updateOne` with `upsert` does), in order. The embedded store writes them all in one
   * journal flush; MongoDB runs them as one ordered bulk write. Not a transaction: after a crash
   * a prefix of them may be applied, never a later one without the earlier ones. Like
   * `insertOnePrevalidated`, only for updates built in code whose results the schema stores as
   * they are (counters): the embedded store skips the schema's cast and validation.
   */
  upsertMany(writes: readonly IdUpdate[]): Promise<void>;
  /** Resolves to the number of deleted documents. */
  deleteMany(filter: Filter): Promise<number>;
  countDocuments(filter?: Filter): Promise<number>;
  aggregate<TResult = Record<string, unknown>>(pipeline: Pipeline): Promise<TResult[]>;
}
