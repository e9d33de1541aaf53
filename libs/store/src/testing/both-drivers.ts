import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { afterAll, describe } from "vitest";
import { openStore, type Store } from "../store";
import { mongoForTests } from "./mongo-for-tests";
import { makeTempDir } from "./temp-dir";

/** A freshly opened, empty store and how to dispose of it (close it and delete its data). */
export interface StoreUnderTest {
  store: Store;
  dispose(): Promise<void>;
}

/** A contract suite: the same tests, given a driver's name and a way to open an empty store on it. */
export type StoreContract = (driverName: string, openEmptyStore: () => Promise<StoreUnderTest>) => void;

/**
 * Runs a contract suite on the embedded driver (a temp dir per test) and on MongoDB (a fresh
 * database per test) when one is available: MONGO_URL or a container runtime for testcontainers.
 * Without one, the MongoDB half is skipped and the reason printed.
 */
export async function runOnBothDrivers(suiteName: string, contract: StoreContract): Promise<void> {
  contract("embedded", async () => {
    const dir = await makeTempDir();
    const store = await openStore({ mongoUrl: null, dataDir: dir.path });
    return {
      store,
      async dispose() {
        await store.close();
        await dir.remove();
      },
    };
  });

  const mongo = await mongoForTests();
  const mongoUrl = mongo.url;
  if (mongo.url === null) console.warn(`Skipping the MongoDB run of the ${suiteName} contract: ${mongo.reason}.`);
  else afterAll(() => mongo.stop());

  describe.skipIf(!mongoUrl)("MongoDB driver", () => {
    contract("mongo", async () => {
      const database = freshMongoDatabase(mongoUrl ?? "");
      const store = await openStore({ mongoUrl: database.url, dataDir: "unused" });
      return {
        store,
        async dispose() {
          await store.close();
          await database.drop();
        },
      };
    });
  });
}

/** A new database on the test server, so a test starts empty, and how to drop it afterwards. */
export function freshMongoDatabase(serverUrl: string): { url: string; drop(): Promise<void> } {
  const url = withDatabase(serverUrl, `sd_store_test_${randomUUID().replaceAll("-", "")}`);
  return {
    url,
    async drop() {
      const connection = await mongoose.createConnection(url).asPromise();
      await connection.dropDatabase();
      await connection.close();
    },
  };
}

/** The same MongoDB URL pointing at another database (so each test starts empty). */
export function withDatabase(url: string, database: string): string {
  const [base = "", query] = url.split("?", 2);
  const hosts = /^(mongodb(?:\+srv)?:\/\/[^/]+)/.exec(base)?.[1];
  if (!hosts) throw new Error(`Unrecognised MONGO_URL: ${url}`);
  return `${hosts}/${database}${query ? `?${query}` : ""}`;
}
