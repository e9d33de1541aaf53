import type { Model, mongo, PipelineStage, UpdateQuery } from "mongoose";
import type { BaseDocument, Collection, Filter, FindOptions, IdUpdate, Pipeline, Update, UpdateOptions, UpdateResult } from "../../collection";
import { assertUpdateDocument } from "../../update-document";

/** Documents a stream's cursor fetches per round trip. */
const STREAM_BATCH = 500;

/** A `Collection` on a mongoose model: documents are cast and validated by the schema on write, read back lean. */
export class MongoCollection<TDoc extends BaseDocument> implements Collection<TDoc> {
  readonly name: string;

  constructor(private readonly model: Model<TDoc>) {
    this.name = model.collection.collectionName;
  }

  async insertOne(doc: TDoc): Promise<void> {
    await this.model.create(doc);
  }

  async insertOnePrevalidated(doc: TDoc): Promise<void> {
    // Through the native collection, not a mongoose document: no cast, no validation (see Collection).
    // Mongoose types its collection with ObjectId ids; ours are strings (`BaseDocument`).
    const native = this.model.collection as unknown as mongo.Collection<TDoc>;
    // TDoc always has its _id, which the driver's conditional type cannot see through a generic.
    await native.insertOne(doc as mongo.OptionalUnlessRequiredId<TDoc>);
  }

  async findOne(filter: Filter): Promise<TDoc | null> {
    return this.model.findOne(filter).lean<TDoc>().exec();
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<TDoc[]> {
    const query = this.model.find(filter, options.projection ?? null);
    if (options.sort) query.sort(options.sort);
    if (options.skip !== undefined) query.skip(options.skip);
    if (options.limit !== undefined) query.limit(options.limit);
    return query.lean<TDoc[]>().exec();
  }

  async *stream(filter: Filter, options: FindOptions = {}): AsyncIterable<TDoc> {
    const query = this.model.find(filter, options.projection ?? null);
    if (options.sort) query.sort(options.sort);
    if (options.skip !== undefined) query.skip(options.skip);
    if (options.limit !== undefined) query.limit(options.limit);
    for await (const doc of query.lean<TDoc[]>().batchSize(STREAM_BATCH).cursor()) yield doc as TDoc;
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    assertUpdateDocument(update);
    const result = await this.model
      .updateOne(filter, update as UpdateQuery<TDoc>, {
        upsert: options.upsert ?? false,
        runValidators: true,
        // Pipelines are passed through uncast (mongoose does not cast them); operator updates are cast.
        updatePipeline: Array.isArray(update),
      })
      .exec();
    return {
      matchedCount: result.matchedCount,
      modifiedCount: result.modifiedCount,
      upsertedId: result.upsertedId === null || result.upsertedId === undefined ? null : String(result.upsertedId),
    };
  }

  async findOneAndUpdate(filter: Filter, update: Update): Promise<TDoc | null> {
    assertUpdateDocument(update);
    return this.model
      .findOneAndUpdate(filter, update as UpdateQuery<TDoc>, {
        returnDocument: "before",
        runValidators: true,
        updatePipeline: Array.isArray(update),
      })
      .lean<TDoc>()
      .exec();
  }

  async upsertMany(writes: readonly IdUpdate[]): Promise<void> {
    for (const { update } of writes) assertUpdateDocument(update);
    if (writes.length === 0) return;
    // Mongoose types bulk filters on ObjectId ids; ours are strings (`BaseDocument`).
    const operations = writes.map(({ id, update }) => ({ updateOne: { filter: { _id: id }, update, upsert: true } })) as unknown as Parameters<Model<TDoc>["bulkWrite"]>[0];
    await this.model.bulkWrite(operations, { ordered: true });
  }

  async deleteMany(filter: Filter): Promise<number> {
    const result = await this.model.deleteMany(filter).exec();
    return result.deletedCount;
  }

  async countDocuments(filter: Filter = {}): Promise<number> {
    return this.model.countDocuments(filter).exec();
  }

  async aggregate<TResult = Record<string, unknown>>(pipeline: Pipeline): Promise<TResult[]> {
    return this.model.aggregate<TResult>(pipeline as unknown as PipelineStage[]).exec();
  }
}
