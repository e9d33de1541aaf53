import { spawnSync } from "node:child_process";
import { appendFile, chmod, mkdir, readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StorageEvents, StoreUnwritableError, type StorageEvent } from "../../storage-health";
import { openStore, type Store } from "../../store";
import { sampleDecision } from "../../testing/sample-decision";
import { makeTempDir } from "../../testing/temp-dir";
import { LOCK_FILE_NAME } from "./data-dir-lock";
import { journalPath } from "./embedded-collection";
import { JournalCorruptError } from "./journal-replay";

/**
 * Issue 27: what the embedded store drops from a journal at start is kept and reported, a full
 * disk is reported and recovered from without a restart, and its files are private.
 */

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

describe("embedded store: damage, full disk, file modes", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  const open: Store[] = [];
  let reported: StorageEvent[];
  const openHere = async (dataDir = dir.path) => {
    const events = new StorageEvents().on("storage", (event) => reported.push(event));
    const store = await openStore({ dataDir, events, probe: { firstProbeMs: 50, longestProbeGapMs: 200 } });
    open.push(store);
    return store;
  };
  const closeAll = () => Promise.all(open.splice(0).map((store) => store.close()));
  const journal = () => journalPath(dir.path, "decisions");
  const damaged = () => `${journal()}.damaged`;

  beforeEach(async () => {
    dir = await makeTempDir();
    reported = [];
  });
  afterEach(async () => {
    await closeAll();
    await dir.remove();
  });

  it("keeps a torn last line in <journal>.damaged, reports it with its line and bytes, and is degraded until acknowledged", async () => {
    const first = await openHere();
    await first.decisions.insertOnce(sampleDecision({ id: "a" }));
    await first.decisions.insertOnce(sampleDecision({ id: "b" }));
    await closeAll();
    const whole = await readFile(journal());
    // The case: the last 5 bytes cut after a clean stop (the newline and 4 bytes of "b").
    await truncate(journal(), whole.length - 5);
    const lastLineStart = whole.subarray(0, -1).lastIndexOf(0x0a) + 1;
    const dropped = whole.subarray(lastLineStart, whole.length - 5);

    const second = await openHere();
    expect(await second.decisions.findById("b")).toBeNull();
    expect(reported).toEqual([{ kind: "journal-damaged", journal: journal(), line: 2, bytes: dropped.length, keptIn: damaged() }]);
    // Byte for byte, then a newline so a later damage starts on a line of its own.
    expect(await readFile(damaged())).toEqual(Buffer.concat([dropped, Buffer.from("\n")]));
    expect(await second.storage.damage()).toEqual([damaged()]);
    // The compaction left the journal without the damaged line; nothing else was lost.
    expect((await readFile(journal(), "utf8")).split("\n").filter(Boolean)).toHaveLength(1);

    // Still degraded after a restart: the damage file is the record.
    await closeAll();
    const third = await openHere();
    expect(await third.storage.damage()).toEqual([damaged()]);

    const [renamed] = await third.storage.acknowledgeDamage();
    expect(renamed).toMatch(/decisions\.journal\.jsonl\.damaged\.acknowledged-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z$/);
    expect(await readFile(renamed!)).toEqual(Buffer.concat([dropped, Buffer.from("\n")]));
    expect(await third.storage.damage()).toEqual([]);
    expect(reported.at(-1)).toEqual({ kind: "damage-acknowledged", files: [renamed] });
    await closeAll();
    expect(await (await openHere()).storage.damage()).toEqual([]);
  });

  it("keeps garbage appended after the last good line, and earlier damage with it", async () => {
    const first = await openHere();
    await first.decisions.insertOnce(sampleDecision({ id: "a" }));
    await closeAll();
    const garbage = Buffer.from([0x00, 0xff, 0x7b, 0x22, 0x6e, 0x6f, 0x74, 0x20, 0x6a, 0x73, 0x6f, 0x6e, 0x0a]);
    await appendFile(journal(), garbage);

    const second = await openHere();
    expect(await second.decisions.count()).toBe(1);
    expect(reported).toEqual([{ kind: "journal-damaged", journal: journal(), line: 2, bytes: garbage.length, keptIn: damaged() }]);
    await closeAll();

    await appendFile(journal(), "more garbage");
    await openHere();
    expect(await readFile(damaged())).toEqual(Buffer.concat([garbage, Buffer.from("more garbage\n")]));
  });

  it("still refuses to start on a line damaged before the last one, and keeps nothing aside", async () => {
    const first = await openHere();
    await first.decisions.insertOnce(sampleDecision({ id: "a" }));
    await closeAll();
    const [line] = (await readFile(journal(), "utf8")).split("\n");
    await writeFile(journal(), `${line!.slice(0, -5)}\n${line}\n`);

    await expect(openHere()).rejects.toBeInstanceOf(JournalCorruptError);
    expect((await readdir(dir.path)).filter((name) => name.includes(".damaged"))).toEqual([]);
  });

  it("creates DATA_DIR 0700 and every file 0600 (journals, lock, stored-apart values, damage), and tightens older looser ones", async () => {
    const dataDir = join(dir.path, "data");
    const store = await openHere(dataDir);
    await store.decisions.insertOnce(sampleDecision({ id: "a" }));
    await store.imageAssets.saveForDecision({ decisionId: "a", userId: "u", images: [{ label: "image1", data: "data:image/png;base64,AAAA" }], createdAt: new Date() });
    expect(await modeOf(dataDir)).toBe(0o700);
    expect(await modeOf(join(dataDir, LOCK_FILE_NAME))).toBe(0o600);
    expect(await modeOf(journalPath(dataDir, "decisions"))).toBe(0o600);
    const apartDirs = (await readdir(dataDir)).filter((name) => name.endsWith(".apart"));
    expect(apartDirs).not.toHaveLength(0);
    for (const name of apartDirs) {
      expect(await modeOf(join(dataDir, name))).toBe(0o700);
      for (const file of await readdir(join(dataDir, name))) expect(await modeOf(join(dataDir, name, file))).toBe(0o600);
    }
    await closeAll();

    // As an older version left them: readable by everyone, and a torn line to keep aside.
    await chmod(dataDir, 0o755);
    await chmod(journalPath(dataDir, "decisions"), 0o644);
    await appendFile(journalPath(dataDir, "users"), "torn");
    await chmod(journalPath(dataDir, "users"), 0o644);
    for (const name of apartDirs) await chmod(join(dataDir, name), 0o755);
    await openHere(dataDir);
    expect(await modeOf(dataDir)).toBe(0o700);
    for (const name of await readdir(dataDir)) {
      expect(await modeOf(join(dataDir, name)), name).toBe(name.endsWith(".apart") ? 0o700 : 0o600);
    }
    expect(await readdir(dataDir)).toContain("users.journal.jsonl.damaged");
  });
});

/**
 * What replay must make of `appended` after a journal of good lines: its lines that are not blank
 * (as replay judges a line) decide. None: nothing dropped. One: dropped from its start to the end
 * of the file. More: the first is damage in the middle, a refusal to start.
 */
function expectedOutcome(appended: Uint8Array): { kind: "clean" } | { kind: "damaged"; kept: Buffer; line: number } | { kind: "refused" } {
  const bytes = Buffer.from(appended);
  const nonBlank: { start: number; line: number }[] = [];
  let start = 0;
  let line = 0;
  while (start <= bytes.length) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    if (start < bytes.length || newline !== -1) {
      line += 1;
      if (bytes.subarray(start, end).toString("utf8").trim() !== "") nonBlank.push({ start, line });
    }
    if (newline === -1) break;
    start = newline + 1;
  }
  const [first] = nonBlank;
  if (first === undefined) return { kind: "clean" };
  if (nonBlank.length > 1) return { kind: "refused" };
  return { kind: "damaged", kept: bytes.subarray(first.start), line: first.line };
}

describe("embedded store: any bytes appended to a journal", () => {
  it("are kept aside byte for byte and reported, or refused as damage in the middle; never dropped silently", async () => {
    const dir = await makeTempDir();
    try {
      const seeded = join(dir.path, "seed");
      const store = await openStore({ dataDir: seeded });
      for (const id of ["a", "b", "c"]) await store.decisions.insertOnce(sampleDecision({ id }));
      await store.close();
      const good = await readFile(journalPath(seeded, "decisions"));
      let run = 0;
      const tails = fc.oneof(
        fc.uint8Array({ maxLength: 200 }),
        // Torn copies of a good line, with or without blank lines and more bytes after them.
        // (A cut just before a newline would leave a whole line: a good one, not damage.)
        fc.tuple(fc.nat({ max: good.length - 2 }).filter((cut) => good[cut] !== 0x0a), fc.constantFrom("", "\n", "\n \t\n", "\nx"), fc.uint8Array({ maxLength: 8 })).map(([cut, middle, more]) =>
          Uint8Array.from(Buffer.concat([good.subarray(0, cut).subarray(good.subarray(0, cut).lastIndexOf(0x0a) + 1), Buffer.from(middle), Buffer.from(more)])),
        ),
      );
      await fc.assert(
        fc.asyncProperty(tails, async (appended) => {
          const dataDir = join(dir.path, `run-${(run += 1)}`);
          const path = journalPath(dataDir, "decisions");
          await writeJournal(dataDir, path, Buffer.concat([good, appended]));
          const expected = expectedOutcome(appended);
          const reported: StorageEvent[] = [];
          const opening = openStore({ dataDir, events: new StorageEvents().on("storage", (event) => reported.push(event)) });
          if (expected.kind === "refused") {
            await expect(opening).rejects.toBeInstanceOf(JournalCorruptError);
            expect(await readFile(path)).toEqual(Buffer.concat([good, appended]));
            expect(await readdir(dataDir)).not.toContain("decisions.journal.jsonl.damaged");
            return;
          }
          const opened = await opening;
          try {
            expect(await opened.decisions.count()).toBe(3);
            if (expected.kind === "clean") {
              expect(reported).toEqual([]);
              expect(await readdir(dataDir)).not.toContain("decisions.journal.jsonl.damaged");
            } else {
              expect(reported).toEqual([{ kind: "journal-damaged", journal: path, line: 3 + expected.line, bytes: expected.kept.length, keptIn: `${path}.damaged` }]);
              const newline = expected.kept.at(-1) === 0x0a ? [] : [Buffer.from("\n")];
              expect(await readFile(`${path}.damaged`)).toEqual(Buffer.concat([expected.kept, ...newline]));
            }
          } finally {
            await opened.close();
          }
        }),
        { numRuns: 150 },
      );
    } finally {
      await dir.remove();
    }
  }, 120_000);
});

/** A data directory holding only this decisions journal. */
async function writeJournal(dataDir: string, path: string, bytes: Buffer): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(path, bytes);
}

/** A tmpfs of 1 MiB mounted for the test (root only), or why not. */
function mountSmallTmpfs(path: string): string | null {
  if (process.getuid?.() !== 0) return "mounting a small tmpfs needs root";
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", path], { encoding: "utf8" });
  return mounted.status === 0 ? null : `mount -t tmpfs failed: ${(mounted.stderr || mounted.error?.message || "").trim()}`;
}

describe("embedded store on a full disk", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let skipReason: string | null = null;
  let store: Store | null = null;
  const reported: StorageEvent[] = [];

  beforeEach(async () => {
    dir = await makeTempDir();
    skipReason = mountSmallTmpfs(dir.path);
  });
  afterEach(async () => {
    await store?.close();
    if (!skipReason) spawnSync("umount", [dir.path]);
    await dir.remove();
  });

  it("answers a write on a full disk with StoreUnwritableError, refuses at once, and recovers without a restart once space is back", async (context) => {
    if (skipReason) {
      console.warn(`Skipping the full-disk test: ${skipReason}`);
      context.skip();
    }
    const events = new StorageEvents().on("storage", (event) => reported.push(event));
    const writableAgain = new Promise<void>((resolve) => events.on("storage", (event) => event.kind === "writable-again" && resolve()));
    store = await openStore({ dataDir: dir.path, events, probe: { firstProbeMs: 50, longestProbeGapMs: 200 } });
    await store.decisions.insertOnce(sampleDecision({ id: "before" }));
    const filler = join(dir.path, "filler");
    await expect(writeFile(filler, Buffer.alloc(2 << 20))).rejects.toMatchObject({ code: "ENOSPC" });

    // Bigger than a page, so no slack at the end of the journal's last page can take it.
    const big = sampleDecision({ id: "full", question: "Which one? ".repeat(1_000) });
    const failed = await store.decisions.insertOnce(big).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(StoreUnwritableError);
    expect(failed).toMatchObject({ code: "ENOSPC", message: expect.stringMatching(/no space left on device \(ENOSPC\) writing .*decisions\.journal\.jsonl/) });
    expect(store.storage.refusal()?.reason).toMatch(/^no space left on device \(ENOSPC\)/);
    expect(reported).toEqual([{ kind: "unwritable", reason: expect.stringMatching(/ENOSPC/) }]);

    await rm(filler);
    await writableAgain;
    expect(store.storage.refusal()).toBeNull();
    expect(reported.at(-1)).toMatchObject({ kind: "writable-again" });
    expect(await store.decisions.insertOnce(big)).toBe(true);
    expect(await readdir(dir.path)).not.toContain(".write-probe");
  }, 60_000);
});
