import { Schema } from "mongoose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BaseDocument } from "../../collection";
import { defineCollection } from "../../collection-spec";
import { isDuplicateKeyError } from "../../errors";
import { makeTempDir } from "../../testing/temp-dir";
import { EmbeddedCollection } from "./embedded-collection";

interface Account extends BaseDocument {
  email: string;
  team: string;
  handle: string;
  nickname?: string | null;
  visits: number;
  tags: string[];
  createdAt?: Date;
}

const accountSchema = new Schema(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true, unique: true },
    team: { type: String, required: true },
    handle: { type: String, required: true },
    nickname: { type: String, unique: true, sparse: true },
    visits: { type: Number, default: 0, min: 0 },
    tags: { type: [String], default: [] },
    createdAt: Date,
  },
  { versionKey: false, strict: "throw" },
);
accountSchema.index({ team: 1, handle: 1 }, { unique: true });
const accounts = defineCollection<Account>("accounts", accountSchema);

const account = (id: string, overrides: Partial<Account> = {}): Account => ({
  _id: id,
  email: `${id}@example.com`,
  team: "red",
  handle: id,
  visits: 0,
  tags: [],
  ...overrides,
});

describe("EmbeddedCollection", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let collection: EmbeddedCollection<Account>;

  beforeEach(async () => {
    dir = await makeTempDir();
    collection = await EmbeddedCollection.open(accounts, dir.path);
  });
  afterEach(async () => {
    await collection.close();
    await dir.remove();
  });

  const duplicateOf = async (write: Promise<unknown>) => {
    const error = await write.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isDuplicateKeyError(error)).toBe(true);
    return error as { code: number; indexName: string; keyValue: Record<string, unknown> };
  };

  it("enforces _id, path-level unique and compound unique indexes with code 11000", async () => {
    await collection.insertOne(account("a"));
    expect((await duplicateOf(collection.insertOne(account("a", { email: "other@example.com" })))).indexName).toBe("_id_");
    expect(await duplicateOf(collection.insertOne(account("b", { email: "a@example.com" })))).toMatchObject({
      code: 11000,
      indexName: "email_1",
      keyValue: { email: "a@example.com" },
    });
    expect((await duplicateOf(collection.insertOne(account("c", { handle: "a" })))).indexName).toBe("team_1_handle_1");
    await collection.insertOne(account("d", { handle: "a", team: "blue" }));
    expect(await collection.countDocuments()).toBe(2);
  });

  it("lets sparse unique fields be missing on many documents", async () => {
    await collection.insertOne(account("a"));
    await collection.insertOne(account("b"));
    await collection.insertOne(account("c", { nickname: "x" }));
    await duplicateOf(collection.insertOne(account("d", { nickname: "x" })));
  });

  it("checks unique indexes on update and frees keys of updated and deleted documents", async () => {
    await collection.insertOne(account("a"));
    await collection.insertOne(account("b"));
    await duplicateOf(collection.updateOne({ _id: "b" }, { $set: { email: "a@example.com" } }));
    expect(await collection.updateOne({ _id: "a" }, { $set: { email: "new@example.com" } })).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    await collection.updateOne({ _id: "b" }, { $set: { email: "a@example.com" } });
    expect(await collection.deleteMany({ _id: "a" })).toBe(1);
    await collection.insertOne(account("a2", { email: "new@example.com" }));
  });

  it("evaluates updates with mingo, casts and validates the result", async () => {
    await collection.insertOne(account("a"));
    await collection.updateOne({ _id: "a" }, { $inc: { visits: 2 }, $push: { tags: "vip" }, $set: { createdAt: "2024-01-01T00:00:00Z" } });
    const found = await collection.findOne({ _id: "a" });
    expect(found).toMatchObject({ visits: 2, tags: ["vip"] });
    expect(found?.createdAt).toEqual(new Date("2024-01-01T00:00:00Z"));
    await expect(collection.updateOne({ _id: "a" }, { $inc: { visits: -10 } })).rejects.toThrow(/visits/);
    await expect(collection.updateOne({ _id: "a" }, { $set: { unknown: 1 } })).rejects.toThrow(/not in schema/);
    await expect(collection.updateOne({ _id: "a" }, { $set: { _id: "z" } })).rejects.toThrow(/immutable/);
    await expect(collection.updateOne({ _id: "a" }, { visits: 1 })).rejects.toThrow(/operators/);
    expect(await collection.updateOne({ _id: "a" }, { $set: { visits: 2 } })).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    expect(await collection.updateOne({ _id: "a" }, [{ $set: { visits: { $add: ["$visits", 1] } } }])).toMatchObject({ modifiedCount: 1 });
    expect((await collection.findOne({ _id: "a" }))?.visits).toBe(3);
  });

  it("upserts from the filter's equalities and $setOnInsert", async () => {
    const result = await collection.updateOne(
      { _id: "u", team: "green" },
      { $setOnInsert: { email: "u@example.com", handle: "u" }, $inc: { visits: 1 } },
      { upsert: true },
    );
    expect(result).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: "u" });
    await collection.updateOne({ _id: "u" }, { $setOnInsert: { email: "ignored@example.com" }, $inc: { visits: 1 } }, { upsert: true });
    expect(await collection.findOne({ _id: "u" })).toEqual({ _id: "u", team: "green", email: "u@example.com", handle: "u", visits: 2, tags: [] });
  });

  it("finds with sort, skip, limit and projection, counts and aggregates", async () => {
    for (const [id, team, visits] of [["a", "red", 3], ["b", "blue", 1], ["c", "red", 2]] as const) {
      await collection.insertOne(account(id, { team, visits }));
    }
    const page = await collection.find({ team: "red" }, { sort: { visits: 1 }, skip: 1, limit: 1, projection: { visits: 1 } });
    expect(page).toEqual([{ _id: "a", visits: 3 }]);
    expect(await collection.countDocuments({ visits: { $gte: 2 } })).toBe(2);
    const totals = await collection.aggregate([{ $group: { _id: "$team", visits: { $sum: "$visits" } } }, { $sort: { _id: 1 } }]);
    expect(totals).toEqual([{ _id: "blue", visits: 1 }, { _id: "red", visits: 5 }]);
    await expect(collection.find({ $where: "true" })).rejects.toThrow(/scriptEnabled/);
  });

  it("replays updates and deletes after reopening", async () => {
    await collection.insertOne(account("a"));
    await collection.insertOne(account("b"));
    await collection.updateOne({ _id: "a" }, { $set: { visits: 7 } });
    await collection.deleteMany({ _id: "b" });
    await collection.close();
    collection = await EmbeddedCollection.open(accounts, dir.path);
    expect(await collection.find({})).toEqual([account("a", { visits: 7 })]);
    await duplicateOf(collection.insertOne(account("x", { email: "a@example.com" })));
  });
});
