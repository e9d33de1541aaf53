import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Schema } from "mongoose";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { BaseDocument } from "../../collection";
import { defineCollection } from "../../collection-spec";
import { isDuplicateKeyError } from "../../errors";
import { openStore } from "../../store";
import { describeStorageEvent, StorageEvents } from "../../storage-health";
import type { FlushFailureReport } from "../../testing/flush-past-size-limit";
import { makeTempDir } from "../../testing/temp-dir";
import { EmbeddedCollection, journalPath } from "./embedded-collection";

const ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
const FLUSH_PAST_LIMIT = fileURLToPath(new URL("../../testing/flush-past-size-limit.ts", import.meta.url));

interface Note extends BaseDocument {
  email: string;
  text: string;
  edits: number;
}

const noteSchema = new Schema(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true, unique: true },
    text: { type: String, required: true },
    edits: { type: Number, default: 0, min: 0 },
  },
  { versionKey: false, strict: "throw" },
);
const notes = defineCollection<Note>("notes", noteSchema);
const note = (id: string, overrides: Partial<Note> = {}): Note => ({ _id: id, email: `${id}@example.com`, text: `note ${id}`, edits: 0, ...overrides });

/** What a write answered, without throwing: "ok", or the error's duplicate-key code or message. */
const outcome = (write: Promise<unknown>) =>
  write.then(
    () => "ok",
    (error: unknown) => (isDuplicateKeyError(error) ? "E11000" : `failed: ${(error as Error).message}`),
  );

describe("embedded collection: group commit", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let collection: EmbeddedCollection<Note>;
  const journalLines = () =>
    readFileSync(journalPath(dir.path, "notes"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { op: string; doc?: Note; ids?: string[] });

  beforeEach(async () => {
    dir = await makeTempDir();
    collection = await EmbeddedCollection.open(notes, dir.path);
  });
  afterEach(async () => {
    vi.useRealTimers();
    await collection.close();
    await dir.remove();
  });

  it("flushes a lone insert at once, alone, with no timer involved", async () => {
    // With timers frozen, a write that waited for a batching window would never be acknowledged.
    vi.useFakeTimers();
    await collection.insertOne(note("a"));
    expect(collection.journalFlushes).toBe(1);
    await collection.insertOnePrevalidated(note("b"));
    expect(collection.journalFlushes).toBe(2);
    expect(journalLines().map((line) => line.doc?._id)).toEqual(["a", "b"]);
  });

  it("shares flushes between concurrent inserts: 100 at once take 2 flushes (the first alone, then the 99 that queued during it)", async () => {
    const ids = Array.from({ length: 100 }, (_, n) => `n${String(n).padStart(3, "0")}`);
    const writes = ids.map((id, n) => (n % 2 === 0 ? collection.insertOne(note(id)) : collection.insertOnePrevalidated(note(id))));
    await Promise.all(writes);
    expect(collection.journalFlushes).toBe(2);
    // Journal order = call order = the collection's order.
    expect(journalLines().map((line) => line.doc?._id)).toEqual(ids);
    expect((await collection.find({})).map((doc) => doc._id)).toEqual(ids);
  });

  it("shows nothing before it is durable: reads issued while a batch is being flushed do not see it", async () => {
    const first = collection.insertOne(note("first"));
    const batch = ["b1", "b2", "b3"].map((id) => collection.insertOne(note(id)));
    const lineAtAck = new Map<string, boolean>();
    // At each acknowledgement, synchronously: is the document's line already in the journal file?
    ["b1", "b2", "b3"].forEach((id, n) => void batch[n]?.then(() => lineAtAck.set(id, journalLines().some((line) => line.doc?._id === id))));
    // Issued in the same tick as the writes: nothing is stored yet.
    expect(await collection.countDocuments()).toBe(0);

    await first;
    // The lone write is done and its line is in the file. The batch that queued behind it is being
    // committed now (it started when the first ended, and its flush needs the disk, which no
    // acknowledgement can outrun): none of it can be read yet.
    expect(journalLines().map((line) => line.doc?._id)).toContain("first");
    expect(await collection.find({})).toEqual([note("first")]);
    expect(await collection.findOne({ _id: "b1" })).toBeNull();

    await Promise.all(batch);
    expect(collection.journalFlushes).toBe(2);
    expect(await collection.countDocuments()).toBe(4);
    expect(Object.fromEntries(lineAtAck)).toEqual({ b1: true, b2: true, b3: true });
  });

  it("never lets a read see a write that is not yet acknowledged, checked at every turn of the event loop while batches flush", async () => {
    const acknowledged = new Set<string>();
    const seenEarly = new Set<string>();
    let writing = true;
    // Between two turns of the event loop a flush's durable write completes; a document made
    // visible before its flush would be seen here while its write is still unacknowledged.
    const reader = (async () => {
      while (writing) {
        for (const doc of await collection.find({})) if (!acknowledged.has(doc._id)) seenEarly.add(doc._id);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    for (let round = 0; round < 10; round += 1) {
      const ids = Array.from({ length: 10 }, (_, n) => `r${round}-${n}`);
      await Promise.all(
        ids.map((id, n) => (n % 2 === 0 ? collection.insertOne(note(id)) : collection.insertOnePrevalidated(note(id))).then(() => acknowledged.add(id))),
      );
    }
    writing = false;
    await reader;
    expect([...seenEarly]).toEqual([]);
    expect(await collection.countDocuments()).toBe(100);
    expect(collection.journalFlushes).toBe(20);
  });

  it("checks unique indexes within a batch: a second insert of the same _id (or unique field) is refused with 11000, the first is stored", async () => {
    const first = collection.insertOne(note("lead"));
    const batch = [
      collection.insertOne(note("x", { text: "first x" })),
      collection.insertOnePrevalidated(note("x", { text: "second x", email: "other@example.com" })),
      collection.insertOne(note("y", { email: "x@example.com" })),
      collection.insertOne(note("z")),
      collection.insertOne(note("lead", { email: "lead2@example.com" })),
    ].map(outcome);
    await first;
    expect(await Promise.all(batch)).toEqual(["ok", "E11000", "E11000", "ok", "E11000"]);
    expect(collection.journalFlushes).toBe(2);
    expect(await collection.find({}, { sort: { _id: 1 } })).toEqual([note("lead"), note("x", { text: "first x" }), note("z")]);
  });

  it("fails only the invalid insert of a batch; the others are stored", async () => {
    const first = collection.insertOne(note("lead"));
    const batch = [
      collection.insertOne(note("a")),
      collection.insertOne(note("bad", { edits: -1 })),
      collection.insertOne({ ...note("strict"), extra: true } as Note),
      collection.insertOne(note("b")),
    ].map(outcome);
    await first;
    const answers = await Promise.all(batch);
    expect(answers[0]).toBe("ok");
    expect(answers[1]).toMatch(/edits/);
    expect(answers[2]).toMatch(/not in schema/);
    expect(answers[3]).toBe("ok");
    expect((await collection.find({})).map((doc) => doc._id)).toEqual(["lead", "a", "b"]);
  });

  it("lets an update or delete queued behind inserts see them, in call order, and replays exactly the acknowledged writes", async () => {
    const writes = [
      collection.insertOne(note("a")),
      collection.insertOne(note("b")),
      collection.insertOne(note("c")),
      collection.updateOne({ _id: "b" }, { $inc: { edits: 1 } }),
      collection.insertOne(note("d")),
      collection.insertOne(note("b")),
      collection.deleteMany({ _id: "c" }),
      collection.updateOne({ _id: "d" }, { $set: { text: "edited d" }, $inc: { edits: 2 } }),
      collection.insertOne(note("c", { text: "c again" })),
    ].map(outcome);
    expect(await Promise.all(writes)).toEqual(["ok", "ok", "ok", "ok", "ok", "E11000", "ok", "ok", "ok"]);
    // a alone; b c; update; d (b refused); delete; update; c again.
    expect(collection.journalFlushes).toBe(7);
    expect(journalLines().map((line) => (line.op === "del" ? `del ${line.ids?.join()}` : `put ${line.doc?._id}`))).toEqual([
      "put a",
      "put b",
      "put c",
      "put b",
      "put d",
      "del c",
      "put d",
      "put c",
    ]);
    const expected = [note("a"), note("b", { edits: 1 }), note("d", { text: "edited d", edits: 2 }), note("c", { text: "c again" })];
    expect(await collection.find({})).toEqual(expected);

    await collection.close();
    collection = await EmbeddedCollection.open(notes, dir.path);
    expect(await collection.find({})).toEqual(expected);
  });

  it("answers writes queued before close, and refuses those queued after it", async () => {
    const before = collection.insertOne(note("a"));
    const alsoBefore = collection.insertOne(note("b"));
    const closing = collection.close();
    const after = outcome(collection.insertOne(note("c")));
    await expect(before).resolves.toBeUndefined();
    await expect(alsoBefore).resolves.toBeUndefined();
    await closing;
    expect(await after).toMatch(/closed/);
    collection = await EmbeddedCollection.open(notes, dir.path);
    expect((await collection.find({})).map((doc) => doc._id)).toEqual(["a", "b"]);
  });
});

describe("embedded store: a flush that fails part-way", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await dir.remove();
  });

  it("rejects every write of its batch, shows none of them, leaves no partial line, and later writes succeed", async () => {
    // A file-size limit (setrlimit, no root needed) makes the kernel write the batch up to the limit,
    // then fail it with EFBIG: a real short write, in a process of its own.
    const { stdout } = await promisify(execFile)("sh", ["-c", 'ulimit -f 2048 && exec "$0" "$@"', process.execPath, "--import", "tsx", FLUSH_PAST_LIMIT, dir.path], {
      cwd: ROOT,
      maxBuffer: 1 << 20,
    });
    const report = JSON.parse(stdout) as FlushFailureReport;

    expect(report.outcomes).toEqual([
      { id: "a", answer: "inserted" },
      { id: "b", answer: "failed: EFBIG" },
      { id: "c", answer: "failed: EFBIG" },
      { id: "d", answer: "failed: EFBIG" },
      // Refused within the batch as a duplicate of "b", which was never stored: the flush's error, not "already there".
      { id: "b", answer: "failed: EFBIG" },
      { id: "e", answer: "inserted" },
    ]);
    expect(report.visible).toEqual(["a", "e"]);
    expect(report.journalIds).toEqual(["a", "e"]);
    expect(report.journalEndsWithNewline).toBe(true);

    // Replayed after a restart: exactly the acknowledged writes.
    // Nothing was dropped at open: the failed flush left no partial line to keep as damage.
    const events = new StorageEvents().on("storage", (event) => expect.fail(describeStorageEvent(event)));
    const store = await openStore({ dataDir: dir.path, events });
    try {
      expect((await store.decisions.list({ limit: 10, offset: 0 })).map((decision) => decision.id).sort()).toEqual(["a", "e"]);
    } finally {
      await store.close();
    }
  });
});
