import { createReadStream } from "node:fs";
import { access, open } from "node:fs/promises";
import type { BaseDocument } from "../../collection";
import { decodeJournalLine } from "./journal-format";

export interface ReplayResult<TDoc extends BaseDocument> {
  /** Live documents by `_id`, in first-insert order. */
  docs: Map<string, TDoc>;
  /** The unreadable end replay dropped (a line torn by a crash, or garbage after the last good line); null when none. */
  damage: JournalDamage | null;
  /**
   * True when the journal is already a snapshot: exactly one `put` line per live document, no
   * deletes, no blank or torn lines, ending with a newline (so appends start on a fresh line).
   */
  isSnapshot: boolean;
  /** Each live document's last `put` line as read (for a compaction that need not re-encode them). */
  lines: Map<string, string>;
}

/** Where a journal's dropped end starts (1-based line, byte offset) and how many bytes it holds, to the end of the file. */
export interface JournalDamage {
  line: number;
  offset: number;
  bytes: number;
}

export class JournalCorruptError extends Error {
  constructor(
    readonly path: string,
    readonly lineNumber: number,
  ) {
    super(`Journal ${path} is corrupt at line ${lineNumber} (only a torn last line is tolerated)`);
    this.name = "JournalCorruptError";
  }
}

/**
 * Rebuilds a collection from its journal, streaming it line by line; a missing file is an empty
 * collection. An unreadable line is tolerated only as the last one: appends are acknowledged
 * once durable, so a line cut off by a crash was never acknowledged.
 */
export async function replayJournal<TDoc extends BaseDocument>(path: string): Promise<ReplayResult<TDoc>> {
  const docs = new Map<string, TDoc>();
  const lines = new Map<string, string>();
  if (!(await exists(path))) return { docs, damage: null, isSnapshot: false, lines };

  let unreadable: { line: number; offset: number } | null = null;
  let lineNumber = 0;
  let putLines = 0;
  let fileEnd = 0;
  for await (const { line, offset, end } of linesWithOffsets(path)) {
    lineNumber += 1;
    fileEnd = end;
    if (line.trim() === "") continue;
    if (unreadable !== null) throw new JournalCorruptError(path, unreadable.line);
    const entry = decodeJournalLine(line);
    if (entry === null) unreadable = { line: lineNumber, offset };
    else if (entry.op === "put") {
      putLines += 1;
      docs.set(entry.doc._id, entry.doc as TDoc);
      lines.set(entry.doc._id, line);
    } else {
      for (const id of entry.ids) {
        docs.delete(id);
        lines.delete(id);
      }
    }
  }
  const damage = unreadable === null ? null : { ...unreadable, bytes: fileEnd - unreadable.offset };
  // Every line a put and none overwritten (puts of the same id shrink docs.size below lineNumber).
  const isSnapshot = damage === null && docs.size === lineNumber && putLines === lineNumber && (lineNumber === 0 || (await endsWithNewline(path)));
  return { docs, damage, isSnapshot, lines };
}

/**
 * The file's lines (split at "\n", which ends every journal line) with the byte offset each starts
 * at and the offset after it: a dropped end is then kept byte for byte, whatever it holds.
 */
async function* linesWithOffsets(path: string): AsyncGenerator<{ line: string; offset: number; end: number }> {
  let pending: Buffer[] = [];
  let offset = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let newline = chunk.indexOf(0x0a); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      const bytes = pending.length === 0 ? chunk.subarray(start, newline) : Buffer.concat([...pending, chunk.subarray(start, newline)]);
      pending = [];
      const end = offset + bytes.length + 1;
      yield { line: bytes.toString("utf8"), offset, end };
      offset = end;
      start = newline + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) {
    const bytes = Buffer.concat(pending);
    yield { line: bytes.toString("utf8"), offset, end: offset + bytes.length };
  }
}

async function endsWithNewline(path: string): Promise<boolean> {
  const handle = await open(path, "r");
  try {
    const { size } = await handle.stat();
    if (size === 0) return true;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] === 0x0a;
  } finally {
    await handle.close();
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}
