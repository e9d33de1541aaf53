import { ADMIN_PERIODS, type StoredDecision } from "@sd/contracts";
import { rm } from "node:fs/promises";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Collection } from "../collection";
import type { StoreDriver } from "../driver";
import { journalPath } from "../drivers/embedded/embedded-collection";
import { openEmbeddedDriver } from "../drivers/embedded/open-embedded-driver";
import { openMongoDriver } from "../drivers/mongo/open-mongo-driver";
import { openStore } from "../store";
import { AdminStatsReference } from "../testing/admin-stats-reference";
import { freshMongoDatabase } from "../testing/both-drivers";
import { mongoForTests } from "../testing/mongo-for-tests";
import { sampleDecision } from "../testing/sample-decision";
import { makeTempDir } from "../testing/temp-dir";
import { toDecisionDocument } from "./mapping";
import { openDecisionRepository, type DecisionRepository } from "./repository";
import { RollupDelta } from "./rollup-deltas";
import { decisionRollupsCollection, type RollupDocument } from "./rollup-schema";
import { repairRollups } from "./rollup-upkeep";
import { decisionsCollection, type DecisionDocument } from "./schema";

/**
 * The rollups are rebuilt from the decisions wherever they may have drifted: a store opened on
 * decisions without rollups, a rollup write lost or cut off by a crash, decisions removed behind
 * the repository's back. Run on both drivers, on the collections directly, to stage each drift.
 */

const H = 3_600_000;
const D = 24 * H;
const NOW = Date.parse("2025-03-10T12:34:56.789Z");

interface Opened {
  driver: StoreDriver;
  decisions: Collection<DecisionDocument>;
  rollups: Collection<RollupDocument>;
}

interface DriverUnderTest {
  /** Opens the driver and both collections (again, after `close`, on the same data). */
  open(): Promise<Opened>;
  dispose(): Promise<void>;
}

/** Decisions over the last few days, with users, IPs, categories and errors. */
function spread(count: number, prefix: string, newest = NOW): StoredDecision[] {
  return Array.from({ length: count }, (_, n) =>
    sampleDecision({
      id: `${prefix}${n}`,
      timestamp: new Date(newest - ((n * 7_919_000) % (5 * D))),
      user_id: n % 4 === 0 ? null : `user.${n % 5}`,
      is_authenticated: n % 4 !== 0,
      user_email: n % 4 === 0 ? null : `u${n % 3}@example.com`,
      user_ip: `10.0.0.${n % 6}`,
      final_decision: n % 5 === 0 ? null : `Cat ${n % 3}`,
      error_details: n % 6 === 1 ? { claude: "timeout" } : {},
      processing_time_ms: 100 + n,
    }),
  );
}

async function expectSameAsFullScan(repository: DecisionRepository, stored: StoredDecision[], now = NOW): Promise<void> {
  const reference = new AdminStatsReference(stored);
  for (const period of ADMIN_PERIODS) {
    const window = { period, now: new Date(now) };
    expect(await repository.usageStats(window), period).toEqual(reference.usageStats(window));
    expect(await repository.healthFigures(window), period).toEqual(reference.healthFigures(window));
  }
}

/** Writes decisions as a crash right after each decision write would leave them: no rollup change. */
async function withoutRollups(decisions: Collection<DecisionDocument>, stored: StoredDecision[]): Promise<void> {
  for (const decision of stored) await decisions.insertOnePrevalidated(toDecisionDocument(decision));
}

function describeRollupRepair(driverName: string, makeSubject: () => Promise<DriverUnderTest>): void {
  describe(`rollup repair (${driverName})`, () => {
    let subject: DriverUnderTest | null = null;
    let opened: Opened | null = null;
    const open = async () => {
      await opened?.driver.close();
      opened = await (subject ??= await makeSubject()).open();
      return opened;
    };
    afterEach(async () => {
      await opened?.driver.close();
      await subject?.dispose();
      opened = null;
      subject = null;
    });

    it("rebuilds every day from the decisions when the store has no rollups of this layout", async () => {
      const { decisions, rollups } = await open();
      const stored = spread(120, "old");
      await withoutRollups(decisions, stored);
      expect(await rollups.countDocuments()).toBe(0);
      const repository = await openDecisionRepository(decisions, rollups, { clock: () => NOW });
      expect(await rollups.findOne({ _id: "meta" })).toMatchObject({ version: 1 });
      await expectSameAsFullScan(repository, stored);
      // Checked again at the next open: nothing left to rebuild.
      expect(await repairRollups(decisions, rollups, { now: NOW, settleMs: 0 })).toBe(0);
    });

    it("rebuilds just the days a lost rollup write or a deletion behind its back left wrong, after a reopen", async () => {
      let { decisions, rollups } = await open();
      const repository = await openDecisionRepository(decisions, rollups, { clock: () => NOW });
      const kept = spread(100, "kept");
      for (const decision of kept) await repository.insertOnce(decision);
      await repository.flushed();
      const lost = [sampleDecision({ id: "lost", timestamp: new Date(NOW - 2 * D - 5 * H), user_id: "late.user", user_ip: "192.0.2.9" })];
      await withoutRollups(decisions, lost);
      const removed = kept.filter((decision) => decision.timestamp.getTime() < NOW - 4 * D);
      expect(removed.length).toBeGreaterThan(0);
      await decisions.deleteMany({ _id: { $in: removed.map((decision) => decision.id) } });
      const now = [...kept.filter((decision) => !removed.includes(decision)), ...lost];

      ({ decisions, rollups } = await open());
      const days = new Set([...lost, ...removed].map((decision) => Math.floor(decision.timestamp.getTime() / D)));
      expect(await repairRollups(decisions, rollups, { now: NOW, settleMs: 0 })).toBe(days.size);
      await expectSameAsFullScan(await openDecisionRepository(decisions, rollups, { clock: () => NOW }), now);
    });

    it("finds a rollup write cut off part way (day totals go last) and rebuilds that day", async () => {
      const { decisions, rollups } = await open();
      const repository = await openDecisionRepository(decisions, rollups, { clock: () => NOW });
      const stored = spread(40, "s");
      for (const decision of stored) await repository.insertOnce(decision);
      await repository.flushed();
      const cut = sampleDecision({ id: "cut", timestamp: new Date(NOW - 3 * H), user_id: "new.user", final_decision: "New" });
      await withoutRollups(decisions, [cut]);
      const delta = new RollupDelta();
      delta.addDecision(toDecisionDocument(cut));
      const writes = delta.writes();
      expect(writes.at(-1)?.id).toBe("d:2025-03-10");
      await rollups.upsertMany(writes.slice(0, -1));
      expect(await repairRollups(decisions, rollups, { now: NOW, settleMs: 0 })).toBe(1);
      await expectSameAsFullScan(repository, [...stored, cut]);
    });

    it("with other writers, checks a day only once it has settled, and later days as they settle", async () => {
      const { decisions, rollups } = await open();
      let clock = NOW;
      const repository = await openDecisionRepository(decisions, rollups, { clock: () => clock, settleMs: H });
      const stored = spread(60, "w");
      for (const decision of stored) await repository.insertOnce(decision);
      await repository.flushed();
      const yesterday = sampleDecision({ id: "yesterday", timestamp: new Date(NOW - D) });
      const today = sampleDecision({ id: "today", timestamp: new Date(NOW - H) });
      await withoutRollups(decisions, [yesterday, today]);

      // Reopened at NOW: yesterday ended long enough ago to be checked, today is still being written.
      const reopened = await openDecisionRepository(decisions, rollups, { clock: () => clock, settleMs: H });
      expect((await reopened.healthFigures({ period: "week", now: new Date(NOW) })).decisions_in_period).toBe(
        new AdminStatsReference([...stored, yesterday]).healthFigures({ period: "week", now: new Date(NOW) }).decisions_in_period,
      );
      // Today ends and settles: the next statistic checks it.
      clock = NOW + D;
      await expectSameAsFullScan(reopened, [...stored, yesterday, today]);
    });
  });
}

describeRollupRepair("embedded", async () => {
  const dir = await makeTempDir();
  return {
    async open() {
      const driver = await openEmbeddedDriver(dir.path);
      return { driver, decisions: await driver.openCollection(decisionsCollection), rollups: await driver.openCollection(decisionRollupsCollection) };
    },
    dispose: () => dir.remove(),
  };
});

describe("an embedded store whose rollups journal is gone", () => {
  it("rebuilds the rollups at open", async () => {
    const dir = await makeTempDir();
    try {
      const stored = spread(50, "j", Date.now());
      let store = await openStore({ mongoUrl: null, dataDir: dir.path });
      for (const decision of stored) await store.decisions.insertOnce(decision);
      await store.close();
      await rm(journalPath(dir.path, decisionRollupsCollection.name));
      store = await openStore({ mongoUrl: null, dataDir: dir.path });
      try {
        await expectSameAsFullScan(store.decisions, stored, Date.now());
      } finally {
        await store.close();
      }
    } finally {
      await dir.remove();
    }
  });
});

const mongoServer = await mongoForTests();
if (mongoServer.url === null) console.warn(`Skipping the MongoDB run of the rollup repair tests: ${mongoServer.reason}.`);
else afterAll(() => mongoServer.stop());
describe.skipIf(mongoServer.url === null)("MongoDB driver", () => {
  describeRollupRepair("mongo", async () => {
    const database = freshMongoDatabase(mongoServer.url ?? "");
    return {
      async open() {
        const driver = await openMongoDriver(database.url);
        return { driver, decisions: await driver.openCollection(decisionsCollection), rollups: await driver.openCollection(decisionRollupsCollection) };
      },
      dispose: () => database.drop(),
    };
  });
});
