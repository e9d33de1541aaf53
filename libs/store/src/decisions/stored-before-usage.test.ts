import { writeFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { journalPath } from "../drivers/embedded/embedded-collection";
import { encodeJournalLine } from "../drivers/embedded/journal-format";
import { openStore, type Store } from "../store";
import { sampleDecision } from "../testing/sample-decision";
import { makeTempDir } from "../testing/temp-dir";
import type { BaseDocument } from "../collection";
import { toDecisionDocument } from "./mapping";
import type { DecisionDocument } from "./schema";

/**
 * A data directory written before decisions recorded their API key, token usage and cost: its
 * decisions read back with no key, no usage and no cost, and the history keeps working.
 */
describe("decisions stored before API keys and token usage", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let store: Store | null = null;

  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await store?.close();
    await dir.remove();
  });

  it("read back with api_key_id null, token_usage {}, cost_usd 0 and no per-model latency or cost", async () => {
    const current = sampleDecision({ id: "old-1" });
    const old: Partial<DecisionDocument> & BaseDocument = toDecisionDocument(current);
    delete old.api_key_id;
    delete old.token_usage;
    delete old.cost_usd;
    delete old.model_latencies_ms;
    delete old.model_costs_usd;
    await writeFile(journalPath(dir.path, "decisions"), encodeJournalLine({ op: "put", doc: old }));

    store = await openStore({ mongoUrl: null, dataDir: dir.path });
    const expected = { ...current, api_key_id: null, token_usage: {}, cost_usd: 0, model_latencies_ms: {}, model_costs_usd: {} };
    expect(await store.decisions.findById("old-1")).toEqual(expected);
    expect(await store.decisions.page({ userId: current.user_id!, limit: 10, offset: 0 })).toEqual({ decisions: [expected], total: 1 });
  });
});
