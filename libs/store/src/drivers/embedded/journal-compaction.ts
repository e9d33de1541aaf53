import type { BaseDocument } from "../../collection";
import { writeFileAtomically } from "./durable-files";
import { encodeJournalLine } from "./journal-format";

/** Rewrites a journal as a snapshot: one `put` line per live document, replaced atomically. */
export async function compactJournal(path: string, docs: Iterable<BaseDocument>): Promise<void> {
  await writeFileAtomically(path, snapshotLines(docs));
}

function* snapshotLines(docs: Iterable<BaseDocument>): Generator<string> {
  for (const doc of docs) yield encodeJournalLine({ op: "put", doc });
}
