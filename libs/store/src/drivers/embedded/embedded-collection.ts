import { aggregate, find, Query } from "mingo";
import type { Criteria, Projection } from "mingo/types";
import { Types, type Model } from "mongoose";
import { join } from "node:path";
import type { BaseDocument, Collection, Filter, FindOptions, IdUpdate, Pipeline, Update, UpdateOptions, UpdateResult } from "../../collection";
import type { CollectionSpec } from "../../collection-spec";
import { assertUpdateDocument } from "../../update-document";
import { ApartFields } from "./apart-fields";
import { applyPlainUpdate, applyUpdate, upsertSeed } from "./apply-update";
import { assertDocumentSize } from "./document-size";
import { compactJournal } from "./journal-compaction";
import { keepDamagedBytes } from "./journal-damage";
import { encodeJournalLine } from "./journal-format";
import { replayJournal } from "./journal-replay";
import { JournalWriter } from "./journal-writer";
import { MINGO_OPTIONS } from "./mingo-options";
import { castAndValidate, detachedModel } from "./schema-models";
import { RangeIndexes } from "./range-indexes";
import { SecondaryIndexes } from "./secondary-indexes";
import { UniqueIndexes } from "./unique-indexes";
import { WriteQueue, type InsertOutcome } from "./write-queue";
import { WriteRoom } from "./write-room";
import { StorageEvents } from "../../storage-health";

/** Documents a stream copies at a time. */
const STREAM_BATCH = 500;

export function journalPath(dataDir: string, collection: string): string {
  return join(dataDir, `${collection}.journal.jsonl`);
}

export interface EmbeddedCollectionOptions {
  /** Told about a journal's dropped end (kept in `<journal>.damaged`) at open (default: process warnings). */
  events?: StorageEvents;
  /** Watches every write for a full disk (default: a watch of this collection's own). */
  room?: WriteRoom;
}

/**
 * A document on its way in: cast and validated by the schema (started at call time, since that
 * depends on nothing stored), or a private copy of a prevalidated one.
 */
type QueuedInsert<TDoc> = Promise<TDoc>;

/**
 * A `Collection` held in memory, behaving as MongoDB does (mongoose casts, mingo evaluates, unique
 * indexes and the 16 MiB limit are checked in process). Invariants:
 * - a write is journaled durably before it is applied to memory and acknowledged;
 * - a batch of inserts is checked in order, each against the stored documents and the batch's
 *   earlier inserts, so a duplicate within one batch gets 11000 and the first is stored;
 * - a failed flush rejects the whole batch, applies nothing and cuts the journal back.
 */
export class EmbeddedCollection<TDoc extends BaseDocument> implements Collection<TDoc> {
  readonly #queue = new WriteQueue<QueuedInsert<TDoc>>((batch) => this.#commitInserts(batch));
  #closed = false;
  #closing: Promise<void> | null = null;
  #examined = 0;

  private constructor(
    readonly name: string,
    private readonly model: Model<BaseDocument>,
    private readonly docs: Map<string, TDoc>,
    private readonly unique: UniqueIndexes,
    private readonly lookups: SecondaryIndexes,
    private readonly ranges: RangeIndexes,
    private readonly journal: JournalWriter,
    private readonly apart: ApartFields,
    private readonly path: string,
    private readonly room: WriteRoom,
  ) {}

  /**
   * Replays the journal, compacts it into a snapshot (unless it already is one), then opens it for
   * appends. An end that replay dropped is first kept in `<journal>.damaged` and reported, so the
   * compaction that leaves it out of the journal loses nothing.
   */
  static async open<TDoc extends BaseDocument>(spec: CollectionSpec<TDoc>, dataDir: string, options: EmbeddedCollectionOptions = {}): Promise<EmbeddedCollection<TDoc>> {
    const events = options.events ?? new StorageEvents();
    const room = options.room ?? new WriteRoom(dataDir, events);
    const path = journalPath(dataDir, spec.name);
    const { docs, damage, isSnapshot, lines } = await replayJournal<TDoc>(path);
    if (damage) {
      const keptIn = await keepDamagedBytes(path, damage);
      events.report({ kind: "journal-damaged", journal: path, line: damage.line, bytes: damage.bytes, keptIn });
    }
    const apart = await ApartFields.open(dataDir, spec.name, spec.storedApart);
    // Values a journal still holds go to their files, and those documents' lines are written anew.
    const moved = await apart.adopt(docs);
    for (const id of moved) lines.delete(id);
    const unique = UniqueIndexes.fromSchema(spec.name, spec.schema);
    const lookups = SecondaryIndexes.fromSchema(spec.schema);
    const ranges = RangeIndexes.fromSchema(spec.schema);
    for (const doc of docs.values()) {
      unique.add(doc);
      lookups.add(doc);
    }
    ranges.load(docs.values());
    // Rewriting a journal that is already one line per live document would only cost start-up time.
    if (!isSnapshot || moved.size > 0) await compactJournal(path, docs.values(), lines);
    const journal = await JournalWriter.open(path);
    return new EmbeddedCollection(spec.name, detachedModel(spec.name, spec.schema), docs, unique, lookups, ranges, journal, apart, path, room);
  }

  /**
   * How many documents have been handed to mingo as candidates since open (like MongoDB's "docs
   * examined"): shows whether queries were answered from a lookup table or by scanning everything.
   */
  get documentsExamined(): number {
    return this.#examined;
  }

  /** How many journal flushes (one durable append each) writes have taken since open. */
  get journalFlushes(): number {
    return this.journal.flushes;
  }

  async insertOne(doc: TDoc): Promise<void> {
    // Queued at call time, so a close() called later waits for this write.
    await this.#queue.insert(handled(castAndValidate<TDoc>(this.model, doc)));
  }

  async insertOnePrevalidated(doc: TDoc): Promise<void> {
    // Copied at call time, as the cast copies: later changes to the caller's objects cannot reach the store.
    await this.#queue.insert(Promise.resolve(privateCopy(doc)));
  }

  async findOne(filter: Filter): Promise<TDoc | null> {
    const [first] = await this.find(filter, { limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<TDoc[]> {
    this.#assertOpen();
    this.apart.assertNotUsedBy(filter, "a filter");
    this.apart.assertNotUsedBy(options.sort, "a sort");
    // mingo projects each document through its general expression machinery; keeping a few
    // top-level fields is done here instead, with the same result, at a fraction of the cost.
    const fields = plainInclusion(options.projection);
    const projection = fields ? undefined : (options.projection as Projection<TDoc> | undefined);
    const sorted = this.#sortedCandidates(filter, options);
    const { docs, exact } = sorted ? { docs: sorted, exact: false } : this.#candidateSet(filter);
    let found: TDoc[];
    if (exact && !projection && !options.sort && !options.skip && !options.limit) found = docs;
    else {
      // Candidates that all match (a time range alone) need no test by mingo.
      const cursor = find<TDoc, TDoc>(docs, (exact ? {} : filter) as Criteria<TDoc>, projection, MINGO_OPTIONS);
      if (options.sort) cursor.sort(options.sort);
      if (options.skip) cursor.skip(options.skip);
      if (options.limit) cursor.limit(options.limit);
      found = cursor.all();
    }
    // Picked fields are copied as they are picked: one copy, not a pick and then a clone.
    return this.apart.restore(fields ? found.map((doc) => pick(doc, fields)) : structuredClone(found), this.#stored);
  }

  /**
   * `find`'s answer without its copy of every document: mingo's cursor walks the candidates (a sort
   * orders references to the stored documents), and each batch is copied only when the consumer
   * reaches it. A document deleted meanwhile is left out.
   */
  async *stream(filter: Filter, options: FindOptions = {}): AsyncIterable<TDoc> {
    this.#assertOpen();
    this.apart.assertNotUsedBy(filter, "a filter");
    this.apart.assertNotUsedBy(options.sort, "a sort");
    const { docs, exact } = this.#candidateSet(filter);
    const cursor = find<TDoc, TDoc>(docs, (exact ? {} : filter) as Criteria<TDoc>, options.projection as Projection<TDoc> | undefined, MINGO_OPTIONS);
    if (options.sort) cursor.sort(options.sort);
    if (options.skip) cursor.skip(options.skip);
    if (options.limit) cursor.limit(options.limit);
    let batch: TDoc[] = [];
    const copied = () => this.apart.restore(structuredClone(batch), this.#stored);
    for (const doc of cursor as Iterable<TDoc>) {
      batch.push(doc);
      if (batch.length < STREAM_BATCH) continue;
      yield* await copied();
      batch = [];
    }
    if (batch.length > 0) yield* await copied();
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    this.#assertOpen();
    assertUpdateDocument(update);
    this.apart.assertNotUsedBy(filter, "a filter");
    this.apart.assertNotUsedBy(update, "an update");
    return this.#write(async () => {
      const current = this.#firstMatch(filter);
      if (!current) return options.upsert ? this.#upsert(filter, update) : { matchedCount: 0, modifiedCount: 0, upsertedId: null };
      const { doc, changed } = applyUpdate(current, update, false);
      if (!changed) return { matchedCount: 1, modifiedCount: 0, upsertedId: null };
      const stored = await castAndValidate<TDoc>(this.model, doc);
      assertDocumentSize(this.name, stored, "update");
      this.unique.assertAvailable(stored, current._id);
      await this.#put(stored, current);
      return { matchedCount: 1, modifiedCount: 1, upsertedId: null };
    });
  }

  async findOneAndUpdate(filter: Filter, update: Update): Promise<TDoc | null> {
    this.#assertOpen();
    assertUpdateDocument(update);
    this.apart.assertNotUsedBy(filter, "a filter");
    this.apart.assertNotUsedBy(update, "an update");
    return this.#write(async () => {
      const current = this.#firstMatch(filter);
      if (!current) return null;
      const { doc, changed } = applyUpdate(current, update, false);
      if (changed) {
        const stored = await castAndValidate<TDoc>(this.model, doc);
        assertDocumentSize(this.name, stored, "update");
        this.unique.assertAvailable(stored, current._id);
        await this.#put(stored, current);
      }
      const [before] = await this.apart.restore(structuredClone([current]), () => true);
      return before ?? null;
    });
  }

  /**
   * Every update is applied (in order, a later one seeing the earlier ones) before anything is
   * written, then all of them go out in one journal flush and are applied to memory. Not cast or
   * validated (see `Collection.upsertMany`); the size limit still applies.
   */
  async upsertMany(writes: readonly IdUpdate[]): Promise<void> {
    this.#assertOpen();
    for (const { update } of writes) {
      assertUpdateDocument(update);
      this.apart.assertNotUsedBy(update, "an update");
    }
    if (writes.length === 0) return;
    await this.#write(async () => {
      const staged = new Map<string, { doc: TDoc; previous: TDoc | undefined }>();
      for (const { id, update } of writes) {
        const before = staged.get(id);
        const previous = before ? before.previous : this.docs.get(id);
        const current = before?.doc ?? previous;
        const base = current ?? ({ _id: id } as TDoc);
        const stored = applyPlainUpdate(base, update, !current) ?? applyUpdate(base, update, !current).doc;
        assertDocumentSize(this.name, stored, previous ? "update" : "insert");
        this.unique.assertAvailable(stored, previous?._id);
        staged.set(id, { doc: stored, previous });
      }
      await this.#append([...staged.values()].map(({ doc }) => encodeJournalLine({ op: "put", doc })));
      for (const { doc, previous } of staged.values()) this.#apply(doc, previous);
    });
  }

  async deleteMany(filter: Filter): Promise<number> {
    this.#assertOpen();
    this.apart.assertNotUsedBy(filter, "a filter");
    return this.#write(async () => {
      const query = new Query<TDoc>(filter as Criteria<TDoc>, MINGO_OPTIONS);
      const doomed = this.#candidates(filter).filter((doc) => query.test(doc));
      if (doomed.length === 0) return 0;
      await this.#append([encodeJournalLine({ op: "del", ids: doomed.map((doc) => doc._id) })]);
      for (const doc of doomed) {
        this.unique.remove(doc);
        this.lookups.remove(doc);
        this.ranges.remove(doc);
        this.docs.delete(doc._id);
      }
      await this.apart.remove(doomed);
      return doomed.length;
    });
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    this.#assertOpen();
    this.apart.assertNotUsedBy(filter, "a filter");
    const range = this.ranges.match(filter);
    // A filter that is only a time range is counted from its index alone.
    if (range?.complete && this.lookups.candidates(filter) === null) return range.ids.length;
    const query = new Query<TDoc>(filter as Criteria<TDoc>, MINGO_OPTIONS);
    let count = 0;
    for (const doc of this.#candidates(filter, false)) if (query.test(doc)) count += 1;
    return count;
  }

  /**
   * Runs the pipeline with mingo. When it starts with a `$match`, only that filter's candidates
   * (see `find`) are handed in: the `$match` is still applied to each, and candidates keep the
   * collection's order, so the answer is the one a full scan gives.
   */
  async aggregate<TResult = Record<string, unknown>>(pipeline: Pipeline): Promise<TResult[]> {
    this.#assertOpen();
    this.apart.assertNotUsedByPipeline(pipeline);
    const input = this.#candidates(leadingMatch(pipeline));
    return this.apart.restore(structuredClone(aggregate(input, pipeline, MINGO_OPTIONS)) as TResult[], this.#stored);
  }

  /** Lets writes already queued finish, then closes the journal; later calls reject. */
  close(): Promise<void> {
    this.#closing ??= this.#queue.run(async () => {
      this.#closed = true;
      await this.journal.close();
    });
    return this.#closing;
  }

  /** One batch of inserts (see the class comment): checked in order, one flush, then applied and answered. */
  async #commitInserts(batch: QueuedInsert<TDoc>[]): Promise<InsertOutcome[]> {
    const outcomes: InsertOutcome[] = [];
    const accepted: TDoc[] = [];
    const lines: string[] = [];
    for (const prepared of batch) {
      try {
        this.#assertOpen();
        const cast = await prepared;
        assertDocumentSize(this.name, cast, "insert");
        this.unique.assertAvailable(cast);
        // After the unique check: a refused duplicate never overwrites the stored document's files.
        const doc = await this.room.guard(this.apart.putApart(cast), this.path);
        // Encoded here, so a document that cannot be journaled fails alone, not its whole batch.
        lines.push(encodeJournalLine({ op: "put", doc }));
        // Reserved for the rest of the batch; unique keys are never read by queries, so this shows nothing early.
        this.unique.add(doc);
        accepted.push(doc);
        outcomes.push({ ok: true });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    if (accepted.length === 0) return outcomes;
    try {
      // The values kept apart are durable before the journal line that refers to them.
      await this.room.guard(this.apart.sync(), this.path);
      await this.#append(lines);
    } catch (error) {
      for (const doc of accepted) this.unique.remove(doc);
      await this.apart.remove(accepted).catch(() => undefined);
      // Every insert of the batch fails, including one refused as a duplicate of an insert that was never stored.
      return batch.map(() => ({ ok: false, error }));
    }
    for (const doc of accepted) {
      this.lookups.add(doc);
      this.ranges.add(doc);
      this.docs.set(doc._id, doc);
    }
    return outcomes;
  }

  async #upsert(filter: Filter, update: Update): Promise<UpdateResult> {
    const seed = { _id: new Types.ObjectId().toHexString(), ...upsertSeed(filter) } as TDoc;
    const { doc } = applyUpdate(seed, update, true);
    const stored = await castAndValidate<TDoc>(this.model, doc);
    assertDocumentSize(this.name, stored, "insert");
    this.unique.assertAvailable(stored);
    await this.#put(stored);
    return { matchedCount: 0, modifiedCount: 0, upsertedId: stored._id };
  }

  /** Journal first (durable), then memory: an acknowledged write is always on disk. */
  async #put(doc: TDoc, previous?: TDoc): Promise<void> {
    await this.#append([encodeJournalLine({ op: "put", doc })]);
    this.#apply(doc, previous);
  }

  /** Memory after a journaled put: the document, its unique keys, lookup tables and range indexes. */
  #apply(doc: TDoc, previous: TDoc | undefined): void {
    if (previous) {
      this.unique.remove(previous);
      this.lookups.replace(previous, doc);
      this.ranges.replace(previous, doc);
    } else {
      this.lookups.add(doc);
      this.ranges.add(doc);
    }
    this.unique.add(doc);
    this.docs.set(doc._id, doc);
  }

  /** A durable journal append; a full disk fails it as a StoreUnwritableError (see `WriteRoom`). */
  #append(lines: readonly string[]): Promise<void> {
    return this.room.guard(this.journal.append(lines), this.path);
  }

  /** Whether a document is stored now (for reads that raced a delete). */
  readonly #stored = (id: string): boolean => this.docs.has(id);

  #firstMatch(filter: Filter): TDoc | undefined {
    const query = new Query<TDoc>(filter as Criteria<TDoc>, MINGO_OPTIONS);
    for (const doc of this.#candidates(filter)) if (query.test(doc)) return doc;
    return undefined;
  }

  /**
   * The documents `filter` can match, in the collection's order (unless `ordered` is false): those
   * a lookup table names when the filter pins an indexed field (or `_id`), or those in its time
   * range on a range-indexed field, whichever are fewer; else all of them. Counted in `documentsExamined`.
   */
  #candidates(filter: Filter, ordered = true): TDoc[] {
    return this.#candidateSet(filter, ordered).docs;
  }

  /** `#candidates`, and whether every one of them matches the filter (a filter that is only a time range). */
  #candidateSet(filter: Filter, ordered = true): { docs: TDoc[]; exact: boolean } {
    let ids = this.lookups.candidates(filter);
    let exact = false;
    const range = this.ranges.match(filter);
    if (range && (ids === null || range.ids.length < ids.length)) {
      ids = ordered ? this.lookups.inDocumentOrder(range.ids) : range.ids;
      exact = range.complete;
    }
    let docs: TDoc[];
    if (ids === null) docs = Array.from(this.docs.values());
    else {
      docs = [];
      for (const id of ids) {
        const doc = this.docs.get(id);
        if (doc) docs.push(doc);
      }
    }
    this.#examined += docs.length;
    return { docs, exact };
  }

  /**
   * For a find with a limit whose sort a range index serves (see `RangeIndexes.ordered`): the first
   * `skip + limit` matching documents in that order, which is all the sorted, limited answer can
   * hold. Null when no range index serves the sort, or a lookup table applies.
   */
  #sortedCandidates(filter: Filter, options: FindOptions): TDoc[] | null {
    if (!options.limit) return null;
    const ordered = this.ranges.ordered(options.sort, filter);
    if (ordered === null) return null;
    // A lookup table's candidates (one user's decisions) are fewer than a walk may pass over.
    if (this.lookups.candidates(filter) !== null) return null;
    const query = new Query<TDoc>(filter as Criteria<TDoc>, MINGO_OPTIONS);
    const wanted = options.limit + (options.skip ?? 0);
    const found: TDoc[] = [];
    for (const id of ordered) {
      const doc = this.docs.get(id);
      if (!doc) continue;
      this.#examined += 1;
      if (query.test(doc)) found.push(doc);
      if (found.length === wanted) break;
    }
    return found;
  }

  #write<T>(task: () => Promise<T>): Promise<T> {
    return this.#queue.run(() => {
      this.#assertOpen();
      return task();
    });
  }

  #assertOpen(): void {
    if (this.#closed) throw new Error(`The embedded store is closed (collection ${this.name})`);
  }
}

/** Marks a promise as handled now (it is awaited later, in its batch), so an early rejection is not reported as unhandled. */
function handled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

/** A deep copy of a document the caller vouches for, checked only for the string `_id` every stored document has. */
function privateCopy<TDoc extends BaseDocument>(doc: TDoc): TDoc {
  if (typeof doc !== "object" || doc === null || typeof doc._id !== "string") throw new Error("A document must have a string _id");
  return structuredClone(doc);
}

/** The filter of a pipeline's first stage when it is a `$match`, else `{}` (every document). */
function leadingMatch(pipeline: Pipeline): Filter {
  const [first] = pipeline;
  if (first === undefined || Object.keys(first).length !== 1) return {};
  const filter = first.$match;
  return typeof filter === "object" && filter !== null && !Array.isArray(filter) ? (filter as Filter) : {};
}

/**
 * The fields a projection keeps when it only names top-level fields to include (`{ a: 1, b: true }`),
 * `_id` first unless it is excluded; null for any other projection (mingo applies those).
 */
function plainInclusion(projection: FindOptions["projection"]): string[] | null {
  if (!projection) return null;
  const fields: string[] = [];
  let withId = true;
  for (const [field, value] of Object.entries(projection)) {
    if (field === "_id" && (value === 0 || value === false)) withId = false;
    else if (value !== 1 && value !== true) return null;
    else if (field !== "_id") {
      if (field.includes(".") || field.startsWith("$")) return null;
      fields.push(field);
    }
  }
  if (fields.length === 0) return null;
  return withId ? ["_id", ...fields] : fields;
}

/** A copy of a document with only `fields` (those it holds), as mingo's inclusion projection gives it. */
function pick<TDoc>(doc: TDoc, fields: readonly string[]): TDoc {
  const source = doc as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const field of fields) {
    if (!Object.hasOwn(source, field)) continue;
    const value = source[field];
    kept[field] = typeof value === "object" && value !== null ? structuredClone(value) : value;
  }
  return kept as TDoc;
}
