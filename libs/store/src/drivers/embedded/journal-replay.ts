import { createReadStream } from "node:fs";
import { access } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { BaseDocument } from "../../collection";
import { decodeJournalLine } from "./journal-format";

export interface ReplayResult<TDoc extends BaseDocument> {
  /** Live documents by `_id`, in first-insert order. */
  docs: Map<string, TDoc>;
  /** True when the last line was incomplete (a crash mid-append) and was ignored. */
  ignoredTornTail: boolean;
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
 * after fsync, so a line cut off by a crash was never acknowledged.
 */
export async function replayJournal<TDoc extends BaseDocument>(path: string): Promise<ReplayResult<TDoc>> {
  const docs = new Map<string, TDoc>();
  if (!(await exists(path))) return { docs, ignoredTornTail: false };

  let unreadableLine: number | null = null;
  let lineNumber = 0;
  const lines = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() === "") continue;
    if (unreadableLine !== null) throw new JournalCorruptError(path, unreadableLine);
    const entry = decodeJournalLine(line);
    if (entry === null) unreadableLine = lineNumber;
    else if (entry.op === "put") docs.set(entry.doc._id, entry.doc as TDoc);
    else for (const id of entry.ids) docs.delete(id);
  }
  return { docs, ignoredTornTail: unreadableLine !== null };
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
