import { aggregate, find, Query } from "mingo";
import type { Criteria, Projection } from "mingo/types";
import { Types, type Model } from "mongoose";
import { join } from "node:path";
import type { BaseDocument, Collection, Filter, FindOptions, Pipeline, Update, UpdateOptions, UpdateResult } from "../../collection";
import type { CollectionSpec } from "../../collection-spec";
import { assertUpdateDocument } from "../../update-document";
import { applyUpdate, upsertSeed } from "./apply-update";
import { compilePipeline, NotCompilable } from "./compiled-pipeline";
import { assertDocumentSize } from "./document-size";
import { compactJournal } from "./journal-compaction";
import { replayJournal } from "./journal-replay";
import { JournalWriter } from "./journal-writer";
import { MINGO_OPTIONS } from "./mingo-options";
import { castAndValidate, detachedModel } from "./schema-models";
import { SecondaryIndexes } from "./secondary-indexes";
import { UniqueIndexes } from "./unique-indexes";
import { WriteQueue } from "./write-queue";

export function journalPath(dataDir: string, collection: string): string {
  return join(dataDir, `${collection}.journal.jsonl`);
}

export interface EmbeddedCollectionOptions {
  onWarning?: (message: string) => void;
}

/**
 * A `Collection` held in memory: the mongoose schema casts and validates, mingo evaluates filters,
 * updates and pipelines, unique indexes are checked in process, and every write is journaled and
 * fsynced before it is applied and acknowledged. Writes run one at a time, in call order.
 * Equality on `_id` or on a field leading a declared index narrows the documents mingo looks at
 * (see `SecondaryIndexes`); documents over MongoDB's 16 MiB limit are refused, as MongoDB does.
 */
export class EmbeddedCollection<TDoc extends BaseDocument> implements Collection<TDoc> {
  readonly #queue = new WriteQueue();
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
  ) {}

  /** Replays the journal, compacts it into a snapshot (unless it already is one), then opens it for appends. */
  static async open<TDoc extends BaseDocument>(spec: CollectionSpec<TDoc>, dataDir: string, options: EmbeddedCollectionOptions = {}): Promise<EmbeddedCollection<TDoc>> {
    const path = journalPath(dataDir, spec.name);
    const { docs, ignoredTornTail, isSnapshot, lines } = await replayJournal<TDoc>(path);
    if (ignoredTornTail) options.onWarning?.(`Ignored an incomplete last line in ${path} (an unacknowledged write cut off by a crash)`);
    const unique = UniqueIndexes.fromSchema(spec.name, spec.schema);
    const lookups = SecondaryIndexes.fromSchema(spec.schema);
    for (const doc of docs.values()) {
      unique.add(doc);
      lookups.add(doc);
    }
    // Rewriting a journal that is already one line per live document would only cost start-up time.
    if (!isSnapshot) await compactJournal(path, docs.values(), lines);
    const journal = await JournalWriter.open(path);
    return new EmbeddedCollection(spec.name, detachedModel(spec.name, spec.schema), docs, unique, lookups, journal);
  }

  /**
   * How many documents have been handed to mingo as candidates since open (like MongoDB's "docs
   * examined"): shows whether queries were answered from a lookup table or by scanning everything.
   */
  get documentsExamined(): number {
    return this.#examined;
  }

  async insertOne(doc: TDoc): Promise<void> {
    // Queued at call time (validation included), so a close() called later waits for this write.
    await this.#write(async () => {
      const stored = await castAndValidate<TDoc>(this.model, doc);
      assertDocumentSize(this.name, stored, "insert");
      this.unique.assertAvailable(stored);
      await this.#put(stored);
    });
  }

  async findOne(filter: Filter): Promise<TDoc | null> {
    const [first] = await this.find(filter, { limit: 1 });
    return first ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<TDoc[]> {
    this.#assertOpen();
    const cursor = find<TDoc, TDoc>(this.#candidates(filter), filter as Criteria<TDoc>, options.projection as Projection<TDoc> | undefined, MINGO_OPTIONS);
    if (options.sort) cursor.sort(options.sort);
    if (options.skip) cursor.skip(options.skip);
    if (options.limit) cursor.limit(options.limit);
    return structuredClone(cursor.all());
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    this.#assertOpen();
    assertUpdateDocument(update);
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
    return this.#write(async () => {
      const query = new Query<TDoc>(filter as Criteria<TDoc>, MINGO_OPTIONS);
      const doomed = this.#candidates(filter).filter((doc) => query.test(doc));
      if (doomed.length === 0) return 0;
      await this.journal.append({ op: "del", ids: doomed.map((doc) => doc._id) });
      for (const doc of doomed) {
        this.unique.remove(doc);
        this.lookups.remove(doc);
        this.docs.delete(doc._id);
      }
      return doomed.length;
    });
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    this.#assertOpen();
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
    const input = this.#candidates(leadingMatch(pipeline));
    const compiled = compilePipeline(pipeline);
    if (compiled) {
      try {
        return structuredClone(compiled(input as unknown as Record<string, unknown>[])) as TResult[];
      } catch (error) {
        if (!(error instanceof NotCompilable)) throw error;
      }
    }
    return structuredClone(aggregate(input, pipeline, MINGO_OPTIONS)) as TResult[];
  }

  /** Lets writes already queued finish, then closes the journal; later calls reject. */
  close(): Promise<void> {
    this.#closing ??= this.#queue.run(async () => {
      this.#closed = true;
      await this.journal.close();
    });
    return this.#closing;
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

  /** Journal first (fsynced), then memory: an acknowledged write is always on disk. */
  async #put(doc: TDoc, previous?: TDoc): Promise<void> {
    await this.journal.append({ op: "put", doc });
    if (previous) {
      this.unique.remove(previous);
      this.lookups.replace(previous, doc);
    } else {
      this.lookups.add(doc);
    }
    this.unique.add(doc);
    this.docs.set(doc._id, doc);
  }

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

/** The filter of a pipeline's first stage when it is a `$match`, else `{}` (every document). */
function leadingMatch(pipeline: Pipeline): Filter {
  const [first] = pipeline;
  if (first === undefined || Object.keys(first).length !== 1) return {};
  const filter = first.$match;
  return typeof filter === "object" && filter !== null && !Array.isArray(filter) ? (filter as Filter) : {};
}
