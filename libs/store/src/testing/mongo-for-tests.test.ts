import { describe, expect, it } from "vitest";
import { mongoForTests, REQUIRE_MONGO_VARIABLE } from "./mongo-for-tests";

const noRuntime = () => Promise.reject(new Error("Could not find a working container runtime strategy\nmore detail"));

describe("mongoForTests", () => {
  it("uses MONGO_URL when it is set, without looking for a container runtime", async () => {
    const mongo = await mongoForTests({ env: { MONGO_URL: " mongodb://db:27017 ", [REQUIRE_MONGO_VARIABLE]: "1" }, containerRuntime: noRuntime });
    expect(mongo.url).toBe("mongodb://db:27017");
  });

  it("gives the reason to skip when there is no server and none is required", async () => {
    const mongo = await mongoForTests({ env: {}, containerRuntime: noRuntime });
    expect(mongo).toEqual({ url: null, reason: "MONGO_URL is not set and testcontainers found no container runtime (Could not find a working container runtime strategy)" });
    expect(await mongoForTests({ env: { [REQUIRE_MONGO_VARIABLE]: "0" }, containerRuntime: noRuntime })).toMatchObject({ url: null });
  });

  it("fails instead of skipping when a server is required and there is none", async () => {
    await expect(mongoForTests({ env: { [REQUIRE_MONGO_VARIABLE]: "1" }, containerRuntime: noRuntime })).rejects.toThrow(
      /STORE_TESTS_REQUIRE_MONGO is set, so the MongoDB store tests may not be skipped, but MONGO_URL is not set/,
    );
  });
});
