import { createReadStream } from "node:fs";
import { access, open } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { BaseDocument } from "../../collection";
import { decodeJournalLine } from "./journal-format";

export interface ReplayResult<TDoc extends BaseDocument> {
  /** Live documents by `_id`, in first-insert order. */
  docs: Map<string, TDoc>;
  /** True when the last line was incomplete (a crash mid-append) and was ignored. */
  ignoredTornTail: boolean;
  /**
   * True when the journal is already a snapshot: exactly one `put` line per live document, no
   * deletes, no blank or torn lines, ending with a newline (so appends start on a fresh line).
   */
  isSnapshot: boolean;
  /** Each live document's last `put` line as read (for a compaction that need not re-encode them). */
  lines: Map<string, string>;
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
  if (!(await exists(path))) return { docs, ignoredTornTail: false, isSnapshot: false, lines };

  let unreadableLine: number | null = null;
  let lineNumber = 0;
  let putLines = 0;
  const input = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const line of input) {
    lineNumber += 1;
    if (line.trim() === "") continue;
    if (unreadableLine !== null) throw new JournalCorruptError(path, unreadableLine);
    const entry = decodeJournalLine(line);
    if (entry === null) unreadableLine = lineNumber;
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
  const ignoredTornTail = unreadableLine !== null;
  // Every line a put and none overwritten (puts of the same id shrink docs.size below lineNumber).
  const isSnapshot = !ignoredTornTail && docs.size === lineNumber && putLines === lineNumber && (lineNumber === 0 || (await endsWithNewline(path)));
  return { docs, ignoredTornTail, isSnapshot, lines };
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
