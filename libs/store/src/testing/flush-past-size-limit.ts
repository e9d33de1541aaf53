// Stands in for a store whose disk refuses a write part-way, in the group-commit tests: run as its
// own Node process under a file-size limit (`sh -c 'ulimit -f <blocks>; exec node --import tsx
// flush-past-size-limit.ts <dataDir>'`), it writes one small decision alone, then, while that one
// is being flushed, a batch too big for the limit (the kernel writes up to the limit, then fails
// the write with EFBIG), then one more small decision; it prints one JSON line saying what each
// write answered and what the store and its journal then hold.
import { readFile } from "node:fs/promises";
import { journalPath } from "../drivers/embedded/embedded-collection";
import { openStore } from "../store";
import { sampleDecision } from "./sample-decision";

export interface FlushFailureReport {
  /** Per decision id (in call order; "b" twice), what `insertOnce` answered. */
  outcomes: { id: string; answer: "inserted" | "already there" | `failed: ${string}` }[];
  /** The decision ids the store shows afterwards, in the same process. */
  visible: string[];
  /** The `_id` of each journal line, in order; null for a line that is not a complete entry. */
  journalIds: (string | null)[];
  journalEndsWithNewline: boolean;
}

/** Bigger, in all, than the limit the test sets (2,048 blocks: 1 MiB, or 2 MiB where a block is 1 KiB). */
const BIG_QUESTION = "Which one? ".repeat(70_000);

const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: flush-past-size-limit.ts <dataDir>");

const store = await openStore({ dataDir });
const answer = (id: string, write: Promise<boolean>) =>
  write.then(
    (inserted) => ({ id, answer: inserted ? ("inserted" as const) : ("already there" as const) }),
    (error: NodeJS.ErrnoException) => ({ id, answer: `failed: ${error.code ?? error.message}` as const }),
  );

const alone = answer("a", store.decisions.insertOnce(sampleDecision({ id: "a" })));
// Queued while "a" is being flushed: one batch, whose flush crosses the size limit.
const batch = ["b", "c", "d", "b"].map((id) => answer(id, store.decisions.insertOnce(sampleDecision({ id, question: BIG_QUESTION }))));
const outcomes = [await alone, ...(await Promise.all(batch))];
outcomes.push(await answer("e", store.decisions.insertOnce(sampleDecision({ id: "e" }))));

const visible = (await store.decisions.list({ limit: 100, offset: 0 })).map((decision) => decision.id).sort();
const journal = await readFile(journalPath(dataDir, "decisions"), "utf8");
const journalIds = journal
  .split("\n")
  .filter(Boolean)
  .map((line) => {
    try {
      return (JSON.parse(line) as { doc?: { _id?: string } }).doc?._id ?? null;
    } catch {
      return null;
    }
  });
await store.close();

const report: FlushFailureReport = { outcomes, visible, journalIds, journalEndsWithNewline: journal.endsWith("\n") };
process.stdout.write(`${JSON.stringify(report)}\n`);
