/**
 * What the store benches share: seeding the decisions journal directly and reading it back for a
 * full-scan baseline. The settings, seeded PRNG, timing, temp data dir and results table come from
 * the bench kit, re-exported here under the names the store benches import.
 */
import type { StoredDecision } from "@sd/contracts";
import { isDeepStrictEqual } from "node:util";
import { decisionsCollection, type DecisionDocument } from "@sd/store";
import { toDecisionDocument } from "@sd/store/decisions/mapping";
import { writeFileAtomically } from "@sd/store/drivers/embedded/durable-files";
import { journalPath } from "@sd/store/drivers/embedded/embedded-collection";
import { encodeJournalLine } from "@sd/store/drivers/embedded/journal-format";
import { replayJournal } from "@sd/store/drivers/embedded/journal-replay";
import { castAndValidate, detachedModel } from "@sd/store/drivers/embedded/schema-models";

export { closedLoop, median, percentile, percentiles, positiveInteger, printTable, runInTempDir, seededRandom, timeRuns, type Timing } from "../kit";

export const DAY = 86_400_000;

/**
 * The decisions journal, written directly in its on-disk format (one fsync per decision through the
 * store would take minutes): one put line per document version. A version put with `n % 50 === 0` is
 * also cast and validated by the decisions schema and must come out unchanged, which shows the
 * journal holds what insertOne would have written (validating all of them would triple the seeding).
 */
export function decisionsJournal(): { put(decision: StoredDecision, n: number): Promise<void>; readonly lines: number; write(dataDir: string): Promise<void> } {
  const model = detachedModel(decisionsCollection.name, decisionsCollection.schema);
  const lines: string[] = [];
  return {
    async put(decision, n) {
      const doc = toDecisionDocument(decision);
      if (n % 50 === 0 && !isDeepStrictEqual(await castAndValidate<DecisionDocument>(model, doc), doc)) {
        throw new Error(`Seeded document ${doc._id} is not what the decisions schema stores`);
      }
      lines.push(encodeJournalLine({ op: "put", doc }));
    },
    get lines() {
      return lines.length;
    },
    write: (dataDir) => writeFileAtomically(journalPath(dataDir, decisionsCollection.name), lines),
  };
}

/** Every decision in the data dir's journal, replayed without the store's lookup tables: what a full-scan baseline reads. */
export async function replayedDecisions(dataDir: string): Promise<DecisionDocument[]> {
  return [...(await replayJournal<DecisionDocument>(journalPath(dataDir, decisionsCollection.name))).docs.values()];
}
