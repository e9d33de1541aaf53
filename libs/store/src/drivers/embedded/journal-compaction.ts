import type { BaseDocument } from "../../collection";
import { writeFileAtomically } from "./durable-files";
import { encodeJournalLine } from "./journal-format";

/**
 * Rewrites a journal as a snapshot: one `put` line per live document, in `docs` order, replaced
 * atomically. `readLines` (a document's last `put` line as replay read it) spares re-encoding it.
 */
export async function compactJournal(path: string, docs: Iterable<BaseDocument>, readLines?: ReadonlyMap<string, string>): Promise<void> {
  await writeFileAtomically(path, snapshotLines(docs, readLines));
}

function* snapshotLines(docs: Iterable<BaseDocument>, readLines: ReadonlyMap<string, string> | undefined): Generator<string> {
  for (const doc of docs) {
    const line = readLines?.get(doc._id);
    yield line === undefined ? encodeJournalLine({ op: "put", doc }) : `${line}\n`;
  }
}
