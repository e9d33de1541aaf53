import mongoose, { type Model } from "mongoose";
import type { BaseDocument } from "../../collection";
import type { CollectionSpec } from "../../collection-spec";
import type { StoreDriver } from "../../driver";
import { NO_STORAGE_WATCH } from "../../storage-health";
import { MongoCollection } from "./mongo-collection";

/** Connects to MongoDB; each collection's model is built from its schema and its indexes synced at open. */
export async function openMongoDriver(url: string): Promise<StoreDriver> {
  // Indexes are synced explicitly per collection below, awaited, instead of in the background.
  // Timeouts and other driver options come from the URL (e.g. ?serverSelectionTimeoutMS=5000).
  const connection = mongoose.createConnection(url, { autoIndex: false });
  try {
    await connection.asPromise();
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }

  return {
    kind: "mongo",
    async openCollection<TDoc extends BaseDocument>(spec: CollectionSpec<TDoc>) {
      // The schema is untyped (shared with the embedded driver); TDoc types the model.
      const model = connection.model(spec.name, spec.schema, spec.name) as unknown as Model<TDoc>;
      // The schema is the source of truth: create declared indexes, drop ones no longer declared.
      await model.syncIndexes();
      return new MongoCollection<TDoc>(model);
    },
    async ping() {
      const db = connection.db;
      if (!db) throw new Error("MongoDB connection is not open");
      await db.admin().ping();
    },
    storage: NO_STORAGE_WATCH,
    async close() {
      await connection.close();
    },
  };
}
