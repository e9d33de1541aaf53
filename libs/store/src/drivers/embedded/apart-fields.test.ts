import { randomBytes } from "node:crypto";
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Schema } from "mongoose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BaseDocument } from "../../collection";
import { defineCollection } from "../../collection-spec";
import { isDuplicateKeyError } from "../../errors";
import { makeTempDir } from "../../testing/temp-dir";
import { ApartFieldQueryError } from "./apart-fields";
import { EmbeddedCollection, journalPath } from "./embedded-collection";
import { encodeJournalLine } from "./journal-format";

interface Picture extends BaseDocument {
  owner: string;
  data: string;
  size: number;
}

const pictureSchema = new Schema(
  {
    _id: { type: String, required: true },
    owner: { type: String, required: true },
    data: { type: String, required: true },
    size: { type: Number, required: true },
  },
  { versionKey: false, strict: "throw" },
);
pictureSchema.index({ owner: 1 });
const pictures = defineCollection<Picture>("pictures", pictureSchema, { storedApart: ["data"] });

/** A value large enough that holding it in a journal line or in memory would show. */
const bigValue = () => `data:image/png;base64,${randomBytes(300_000).toString("base64")}`;
const picture = (id: string, data = bigValue(), owner = "ann"): Picture => ({ _id: id, owner, data, size: data.length });

describe("EmbeddedCollection: fields stored apart", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let collection: EmbeddedCollection<Picture>;
  const apartDir = () => join(dir.path, "pictures.apart");
  const journal = () => readFile(journalPath(dir.path, "pictures"), "utf8");
  const reopen = async () => {
    await collection.close();
    collection = await EmbeddedCollection.open(pictures, dir.path);
  };

  beforeEach(async () => {
    dir = await makeTempDir();
    collection = await EmbeddedCollection.open(pictures, dir.path);
  });
  afterEach(async () => {
    await collection.close();
    await dir.remove();
  });

  it("keeps the value out of the journal, in a file of its own, and gives it back on every read, after a restart too", async () => {
    const first = picture("p1");
    const second = picture("p2", bigValue(), "bob");
    await collection.insertOne(first);
    await collection.insertOne(second);

    const text = await journal();
    expect(text.length).toBeLessThan(1000);
    expect(text).not.toContain(first.data.slice(100, 200));
    expect(await readdir(apartDir())).toHaveLength(2);

    expect(await collection.findOne({ _id: "p1" })).toEqual(first);
    expect(await collection.find({ owner: "bob" })).toEqual([second]);
    expect(await collection.find({}, { sort: { _id: -1 } })).toEqual([second, first]);
    expect(await collection.find({ _id: "p1" }, { projection: { data: 0 } })).toEqual([{ _id: "p1", owner: "ann", size: first.size }]);
    expect(await collection.aggregate([{ $match: { owner: "ann" } }])).toEqual([first]);
    expect(await collection.aggregate([{ $group: { _id: null, bytes: { $sum: "$size" } } }])).toEqual([{ _id: null, bytes: first.size + second.size }]);

    await reopen();
    expect(await collection.findOne({ _id: "p1" })).toEqual(first);
    expect(await collection.findOne({ _id: "p2" })).toEqual(second);
  });

  it("reads the value from its file, not from memory", async () => {
    await collection.insertOne(picture("p1"));
    const [file] = await readdir(apartDir());
    await writeFile(join(apartDir(), file!), "data:image/png;base64,AAAA");
    expect((await collection.findOne({ _id: "p1" }))?.data).toBe("data:image/png;base64,AAAA");
  });

  it("does not hide a lost file: reading a stored document whose file is gone fails", async () => {
    await collection.insertOne(picture("p1"));
    const [file] = await readdir(apartDir());
    await rm(join(apartDir(), file!));
    await expect(collection.findOne({ _id: "p1" })).rejects.toMatchObject({ code: "ENOENT" });
    // A read that leaves the field out does not need the file.
    expect(await collection.find({ _id: "p1" }, { projection: { data: 0 } })).toHaveLength(1);
  });

  it("a refused duplicate leaves the stored document's value as it was", async () => {
    const first = picture("p1");
    await collection.insertOne(first);
    const error = await collection.insertOne(picture("p1")).catch((caught: unknown) => caught);
    expect(isDuplicateKeyError(error)).toBe(true);
    expect(await collection.findOne({ _id: "p1" })).toEqual(first);
    expect(await readdir(apartDir())).toHaveLength(1);
  });

  it("deletes a document's file with it; a restart removes files no document refers to", async () => {
    await collection.insertOne(picture("p1"));
    await collection.insertOne(picture("p2"));
    expect(await collection.deleteMany({ _id: "p1" })).toBe(1);
    expect(await readdir(apartDir())).toHaveLength(1);

    // What a crash leaves: a value written whose journal line never was, and a half-written one.
    await writeFile(join(apartDir(), "0".repeat(64)), bigValue());
    await writeFile(join(apartDir(), `${"1".repeat(64)}.tmp`), "data:image/png;base64,AA");
    await reopen();
    expect(await readdir(apartDir())).toHaveLength(1);
    expect((await collection.findOne({ _id: "p2" }))?.owner).toBe("ann");
  });

  it("moves values a journal written before they were kept apart still holds into files at start", async () => {
    await collection.close();
    const older = [picture("old1"), picture("old2")];
    await writeFile(journalPath(dir.path, "pictures"), older.map((doc) => encodeJournalLine({ op: "put", doc })).join(""));
    collection = await EmbeddedCollection.open(pictures, dir.path);

    expect(await collection.find({}, { sort: { _id: 1 } })).toEqual(older);
    expect((await journal()).length).toBeLessThan(1000);
    expect(await readdir(apartDir())).toHaveLength(2);
    await reopen();
    expect(await collection.find({}, { sort: { _id: 1 } })).toEqual(older);
  });

  it("refuses a filter, sort, update or pipeline that names the field, since it cannot see its values", async () => {
    await collection.insertOne(picture("p1", "data:image/png;base64,AAAA"));
    const refused = (operation: Promise<unknown>) => expect(operation).rejects.toBeInstanceOf(ApartFieldQueryError);
    await refused(collection.find({ data: "data:image/png;base64,AAAA" }));
    await refused(collection.find({ $or: [{ owner: "ann" }, { "data.0": "d" }] }));
    await refused(collection.find({}, { sort: { data: 1 } }));
    await refused(collection.countDocuments({ data: { $exists: true } }));
    await refused(collection.updateOne({ _id: "p1" }, { $set: { data: "data:image/png;base64,BBBB" } }));
    await refused(collection.deleteMany({ data: "x" }));
    await refused(collection.aggregate([{ $project: { length: { $strLenCP: "$data" } } }]));
    expect(await collection.findOne({ _id: "p1" })).toEqual(picture("p1", "data:image/png;base64,AAAA"));
  });

  it("reads a value that looks like a reference to the field as the literal it is in a filter", async () => {
    await collection.insertOne(picture("$data"));
    expect(await collection.find({ _id: { $eq: "$data" } }, { projection: { data: 0 } })).toEqual([expect.objectContaining({ _id: "$data" })]);
    expect(await collection.find({ owner: { $eq: "$data.length" } })).toEqual([]);
    expect(await collection.countDocuments({ _id: "$data" })).toBe(1);
    expect(await collection.aggregate([{ $match: { _id: { $eq: "$data" } } }, { $count: "n" }])).toEqual([{ n: 1 }]);
  });

  it("updates a document's other fields and keeps its value", async () => {
    const first = picture("p1");
    await collection.insertOne(first);
    await collection.updateOne({ _id: "p1" }, { $set: { owner: "cy" } });
    await reopen();
    expect(await collection.findOne({ _id: "p1" })).toEqual({ ...first, owner: "cy" });
  });
});
