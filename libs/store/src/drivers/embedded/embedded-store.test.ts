import { spawnSync } from "node:child_process";
import { appendFile, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { StorageEvents } from "../../storage-health";
import { openStore, type Store } from "../../store";
import { sampleDecision } from "../../testing/sample-decision";
import { makeTempDir } from "../../testing/temp-dir";
import { EmbeddedStoreLockedError, LOCK_FILE_NAME } from "./data-dir-lock";
import { journalPath } from "./embedded-collection";
import { JournalCorruptError } from "./journal-replay";

const lateVote = (n: number) => ({ response: `answer ${n}`, raw: `raw ${n}`, confidence: 0.5, model_version: `v${n}`, error: null });

describe("embedded store", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  const open: Store[] = [];
  const openHere = async (events?: StorageEvents) => {
    const store = await openStore({ dataDir: dir.path, events });
    open.push(store);
    return store;
  };
  const journal = () => journalPath(dir.path, "decisions");
  const journalLines = async () => (await readFile(journal(), "utf8")).split("\n").filter(Boolean);

  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((store) => store.close()));
    await dir.remove();
  });

  it("is the driver when no MONGO_URL is given", async () => {
    expect((await openHere()).driver).toBe("embedded");
  });

  it("keeps data across close and reopen (journal replay)", async () => {
    const first = await openHere();
    await first.decisions.insertOnce(sampleDecision({ id: "a" }));
    await first.decisions.insertOnce(sampleDecision({ id: "b", final_decision: null, categories: ["x.y", "$z"], vote_counts: { "x.y": 1, $z: 0 } }));
    await first.decisions.applyLateVote("a", "claude", lateVote(1));
    await first.close();

    const second = await openHere();
    expect(await second.decisions.count()).toBe(2);
    const a = await second.decisions.findById("a");
    expect(a?.timestamp).toBeInstanceOf(Date);
    expect(a?.individual_responses.claude).toBe("answer 1");
    expect(await second.decisions.findById("b")).toEqual(
      sampleDecision({ id: "b", final_decision: null, categories: ["x.y", "$z"], vote_counts: { "x.y": 1, $z: 0 } }),
    );
    expect(await second.decisions.insertOnce(sampleDecision({ id: "a" }))).toBe(false);
  });

  it("journals one Extended JSON line per write, flushed before the write resolves", async () => {
    const store = await openHere();
    await store.decisions.insertOnce(sampleDecision());
    const [line] = await journalLines();
    expect(JSON.parse(line ?? "")).toMatchObject({ op: "put", doc: { _id: "dec-1", timestamp: { $date: "2024-05-01T10:00:00Z" } } });
  });

  it("compacts the journal at open into one line per document", async () => {
    const first = await openHere();
    await first.decisions.insertOnce(sampleDecision());
    for (let n = 0; n < 5; n += 1) await first.decisions.applyLateVote("dec-1", "claude", lateVote(n));
    await first.close();
    expect(await journalLines()).toHaveLength(6);
    const sizeBefore = (await stat(journal())).size;

    const second = await openHere();
    expect((await stat(journal())).size).toBeLessThan(sizeBefore);
    expect(await journalLines()).toHaveLength(1);
    expect((await second.decisions.findById("dec-1"))?.model_versions.claude).toBe("v4");
  });

  it("leaves a journal that is already a snapshot as it is at open, and rewrites one missing its final newline", async () => {
    const first = await openHere();
    await first.decisions.insertOnce(sampleDecision({ id: "a" }));
    await first.decisions.insertOnce(sampleDecision({ id: "b" }));
    await first.close();
    const before = await stat(journal());

    const second = await openHere();
    // Not rewritten: same file (a compaction renames a new one over it).
    expect((await stat(journal())).ino).toBe(before.ino);
    await second.close();

    await writeFile(journal(), (await readFile(journal(), "utf8")).trimEnd());
    const third = await openHere();
    await third.decisions.insertOnce(sampleDecision({ id: "c" }));
    await third.close();
    expect(await journalLines()).toHaveLength(3);
    expect(await (await openHere()).decisions.count()).toBe(3);
  });

  it("ignores a torn last line (a crash mid-append) and keeps working", async () => {
    const first = await openHere();
    await first.decisions.insertOnce(sampleDecision({ id: "a" }));
    await first.decisions.insertOnce(sampleDecision({ id: "b" }));
    await first.close();
    await appendFile(journal(), '{"op":"put","doc":{"_id":"c","question":"Torn');

    const reported = vi.fn();
    const second = await openHere(new StorageEvents().on("storage", reported));
    expect(await second.decisions.count()).toBe(2);
    expect(reported).toHaveBeenCalledWith(expect.objectContaining({ kind: "journal-damaged", journal: journal() }));
    expect(await second.decisions.insertOnce(sampleDecision({ id: "c" }))).toBe(true);
    await second.close();

    const third = await openHere();
    expect((await third.decisions.list({ limit: 10, offset: 0 })).map((d) => d.id).sort()).toEqual(["a", "b", "c"]);
  });

  it("ignores a zero-filled tail left by a crash", async () => {
    const first = await openHere();
    await first.decisions.insertOnce(sampleDecision({ id: "a" }));
    await first.close();
    await appendFile(journal(), Buffer.alloc(64));
    const reported = vi.fn();
    expect(await (await openHere(new StorageEvents().on("storage", reported))).decisions.count()).toBe(1);
    expect(await journalLines()).toHaveLength(1);
    // Kept aside all the same: dropped bytes are never silent.
    expect(reported).toHaveBeenCalledWith(expect.objectContaining({ kind: "journal-damaged", line: 2, bytes: 64 }));
    expect(await readFile(`${journal()}.damaged`)).toEqual(Buffer.concat([Buffer.alloc(64), Buffer.from("\n")]));
  });

  it("refuses a journal corrupted before its last line", async () => {
    const first = await openHere();
    await first.decisions.insertOnce(sampleDecision({ id: "a" }));
    await first.close();
    const [line] = await journalLines();
    await writeFile(journal(), `garbage\n${line}\n`);
    await expect(openStore({ dataDir: dir.path })).rejects.toBeInstanceOf(JournalCorruptError);
    // The failed open released its lock.
    await expect(stat(join(dir.path, LOCK_FILE_NAME))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("writes nothing to the journal when a document fails validation", async () => {
    const store = await openHere();
    await store.decisions.insertOnce(sampleDecision({ id: "ok" }));
    const before = await readFile(journal(), "utf8");
    await expect(store.decisions.insertOnce(sampleDecision({ id: "bad", timestamp: new Date("nope") }))).rejects.toThrow();
    await expect(store.decisions.applyLateVote("ok", "claude", { ...lateVote(1), confidence: 2 })).rejects.toThrow();
    expect(await store.decisions.insertOnce(sampleDecision({ id: "ok" }))).toBe(false);
    expect(await readFile(journal(), "utf8")).toBe(before);
  });

  describe("single-process lock", () => {
    it("refuses a second open of the same DATA_DIR with a message pointing to MONGO_URL", async () => {
      const first = await openHere();
      const second = openStore({ dataDir: dir.path });
      await expect(second).rejects.toBeInstanceOf(EmbeddedStoreLockedError);
      await expect(second).rejects.toThrow(/single process.*MONGO_URL/s);
      await first.close();
      expect((await openHere()).driver).toBe("embedded");
    });

    // Locks held by other processes (and pids left by dead ones): data-dir-lock.test.ts.

    it("takes over a stale lock left by a dead process", async () => {
      const dead = spawnSync(process.execPath, ["-e", ""]);
      await writeFile(join(dir.path, LOCK_FILE_NAME), `${dead.pid}\n`);
      const store = await openHere();
      await store.decisions.insertOnce(sampleDecision());
      expect((await readFile(join(dir.path, LOCK_FILE_NAME), "utf8")).trim()).toBe(String(process.pid));
    });

    it("releases the lock on close", async () => {
      const store = await openHere();
      await store.close();
      await expect(stat(join(dir.path, LOCK_FILE_NAME))).rejects.toMatchObject({ code: "ENOENT" });
      await expect(store.ping()).rejects.toThrow(/closed/);
      await expect(store.decisions.count()).rejects.toThrow(/closed/);
    });
  });

  it("finishes writes already under way when closed", async () => {
    const store = await openHere();
    const writes = Array.from({ length: 5 }, (_, n) => store.decisions.insertOnce(sampleDecision({ id: `w${n}` })));
    await store.close();
    expect(await Promise.all(writes)).toEqual([true, true, true, true, true]);
    expect(await (await openHere()).decisions.count()).toBe(5);
  });
});
