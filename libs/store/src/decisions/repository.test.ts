import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { afterAll, describe } from "vitest";
import { openStore } from "../store";
import { mongoForTests } from "../testing/mongo-for-tests";
import { makeTempDir } from "../testing/temp-dir";
import { describeDecisionRepositoryContract } from "./repository.contract";

describeDecisionRepositoryContract("embedded", async () => {
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
if (mongo.url === null) console.warn(`Skipping the MongoDB run of the DecisionRepository contract: ${mongo.reason}.`);
else afterAll(() => mongo.stop());

describe.skipIf(!mongoUrl)("MongoDB driver", () => {
  describeDecisionRepositoryContract("mongo", async () => {
    const url = withDatabase(mongoUrl ?? "", `sd_store_test_${randomUUID().replaceAll("-", "")}`);
    const store = await openStore({ mongoUrl: url, dataDir: "unused" });
    return {
      store,
      async dispose() {
        await store.close();
        const connection = await mongoose.createConnection(url).asPromise();
        await connection.dropDatabase();
        await connection.close();
      },
    };
  });
});

/** The same MongoDB URL pointing at another database (so each test starts empty). */
function withDatabase(url: string, database: string): string {
  const [base = "", query] = url.split("?", 2);
  const hosts = /^(mongodb(?:\+srv)?:\/\/[^/]+)/.exec(base)?.[1];
  if (!hosts) throw new Error(`Unrecognised MONGO_URL: ${url}`);
  return `${hosts}/${database}${query ? `?${query}` : ""}`;
}
