import { describe, expect, it } from "vitest";
import { useEmulator } from "@sd/provider-emulator/testing";
import { faultTable, type FaultRow } from "@sd/testing/fault-scenarios";
import { batchInterrupted } from "@sd/testing/faults/batch-drill";

/**
 * Issue 32: a 200-line batch on real processes survives a SIGKILL of the process running its
 * gateway, and a SIGKILL of Redis (AOF), mid-batch: it completes and every line is decided exactly
 * once (one stored decision per line, under the line's own decision id; counts = total).
 */

const emulator = useEmulator();

function report(row: FaultRow): FaultRow {
  console.info(faultTable([row]));
  return row;
}

const SIZE = 200;

describe("batch decisions under faults", () => {
  it("the gateway SIGKILLed mid-batch and started again: the batch completes, every line decided exactly once", async () => {
    const row = report(await batchInterrupted({ emulator }, SIZE, "gateway-killed"));
    expect(row).toMatchObject({ lost: 0, doubled: 0, shortOfVotes: 0, statuses: { completed: SIZE } });
    expect(row.note).toMatch(new RegExp(`^batch completed; counts ${SIZE} completed \\+ 0 failed of ${SIZE};`));
    // The killed gateway had lines in flight: the new one took them back, and still decided each once.
    expect(row.note).toMatch(/; [1-9]\d* running lines re-attached after it; 0 lines decided under another id$/);
  }, 180_000);

  it("Redis (AOF) SIGKILLed mid-batch and restarted: the batch completes, every line decided exactly once", async () => {
    const row = report(await batchInterrupted({ emulator }, SIZE, "redis-restarted"));
    expect(row).toMatchObject({ lost: 0, doubled: 0, shortOfVotes: 0, statuses: { completed: SIZE } });
    expect(row.note).toMatch(new RegExp(`^batch completed; counts ${SIZE} completed \\+ 0 failed of ${SIZE};`));
  }, 180_000);

  it("the gateway SIGTERMed mid-batch (a deploy): it exits 0 without waiting for the batch, the next one finishes it, every line decided exactly once", async () => {
    const row = report(await batchInterrupted({ emulator }, SIZE, "gateway-stopped"));
    expect(row).toMatchObject({ lost: 0, doubled: 0, shortOfVotes: 0, statuses: { completed: SIZE }, exitCode: 0 });
    expect(row.note).toMatch(new RegExp(`^batch completed; counts ${SIZE} completed \\+ 0 failed of ${SIZE};`));
  }, 180_000);
});
