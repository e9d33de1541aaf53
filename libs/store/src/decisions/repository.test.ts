import { randomUUID } from "node:crypto";
import mongoose from "mongoose";
import { describe } from "vitest";
import { openStore } from "../store";
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

const mongoUrl = process.env.MONGO_URL;
if (!mongoUrl) {
  console.warn("Skipping the MongoDB run of the DecisionRepository contract: MONGO_URL is not set (no MongoDB available).");
}

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
