import { aggregate, find, Query } from "mingo";
import type { Criteria, Projection } from "mingo/types";
import { Types, type Model } from "mongoose";
import { join } from "node:path";
import type { BaseDocument, Collection, Filter, FindOptions, Pipeline, Update, UpdateOptions, UpdateResult } from "../../collection";
import type { CollectionSpec } from "../../collection-spec";
import { assertUpdateDocument } from "../../update-document";
import { ApartFields } from "./apart-fields";
import { applyUpdate, upsertSeed } from "./apply-update";
import { compilePipeline, NotCompilable } from "./compiled-pipeline";
import { assertDocumentSize } from "./document-size";
import { compactJournal } from "./journal-compaction";
import { keepDamagedBytes } from "./journal-damage";
import { encodeJournalLine } from "./journal-format";
import { replayJournal } from "./journal-replay";
import { JournalWriter } from "./journal-writer";
import { MINGO_OPTIONS } from "./mingo-options";
import { castAndValidate, detachedModel } from "./schema-models";
import { SecondaryIndexes } from "./secondary-indexes";
import { UniqueIndexes } from "./unique-indexes";
import { WriteQueue, type InsertOutcome } from "./write-queue";
import { WriteRoom } from "./write-room";
import { StorageEvents } from "../../storage-health";

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
    for (const doc of docs.values()) {
      unique.add(doc);
      lookups.add(doc);
    }
    // Rewriting a journal that is already one line per live document would only cost start-up time.
    if (!isSnapshot || moved.size > 0) await compactJournal(path, docs.values(), lines);
    const journal = await JournalWriter.open(path);
    return new EmbeddedCollection(spec.name, detachedModel(spec.name, spec.schema), docs, unique, lookups, journal, apart, path, room);
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
    const cursor = find<TDoc, TDoc>(this.#candidates(filter), filter as Criteria<TDoc>, options.projection as Projection<TDoc> | undefined, MINGO_OPTIONS);
    if (options.sort) cursor.sort(options.sort);
    if (options.skip) cursor.skip(options.skip);
    if (options.limit) cursor.limit(options.limit);
    return this.apart.restore(structuredClone(cursor.all()), this.#stored);
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
        this.docs.delete(doc._id);
      }
      await this.apart.remove(doomed);
      return doomed.length;
    });
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    this.#assertOpen();
    this.apart.assertNotUsedBy(filter, "a filter");
    const query = new Query<TDoc>(filter as Criteria<TDoc>, MINGO_OPTIONS);
    let count = 0;
    for (const doc of this.#candidates(filter)) if (query.test(doc)) count += 1;
    return count;
  }

  /**
   * Runs the whole pipeline: compiled to plain closures when it only uses the subset
   * `compilePipeline` handles exactly (much faster), else with mingo — and with mingo too when the
   * compiled run meets a value outside that subset. When it starts with a `$match`, only that
   * filter's candidates (see `find`) are handed in: the `$match` is still applied to each, and
   * candidates keep the collection's order, so the answer is the one a full scan gives.
   */
  async aggregate<TResult = Record<string, unknown>>(pipeline: Pipeline): Promise<TResult[]> {
    this.#assertOpen();
    this.apart.assertNotUsedByPipeline(pipeline);
    const input = this.#candidates(leadingMatch(pipeline));
    const compiled = compilePipeline(pipeline);
    if (compiled) {
      try {
        return this.apart.restore(structuredClone(compiled(input as unknown as Record<string, unknown>[])) as TResult[], this.#stored);
      } catch (error) {
        if (!(error instanceof NotCompilable)) throw error;
      }
    }
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
    if (previous) {
      this.unique.remove(previous);
      this.lookups.replace(previous, doc);
    } else {
      this.lookups.add(doc);
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
   * The documents `filter` can match, in the collection's order: those a lookup table names when
   * the filter pins an indexed field (or `_id`), else all of them. Counted in `documentsExamined`.
   */
  #candidates(filter: Filter): TDoc[] {
    const ids = this.lookups.candidates(filter);
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
    return docs;
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
