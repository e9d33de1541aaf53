import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createRedis } from "./redis";
import { QuorumBoard } from "./quorum-board";

const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "quorum-board-test");
afterAll(() => redis.disconnect());

describe("early quorum's board", () => {
  it("keeps the first settlement, and only that one tells the workers to cancel", async () => {
    const prefix = `sdtest-quorum-${randomUUID().slice(0, 8)}`;
    const board = new QuorumBoard(redis, prefix);
    const listener = new QuorumBoard(redis, prefix);
    const cancelled: string[] = [];
    let heardLast!: () => void;
    const lastHeard = new Promise<void>((resolve) => (heardLast = resolve));
    await listener.listen((decisionId, provider) => {
      cancelled.push(`${decisionId}/${provider}`);
      if (decisionId === "d3") heardLast();
    });
    try {
      expect(await board.skipped("d1")).toBeNull();
      expect(await board.settle("d1", ["claude"])).toEqual(["claude"]);
      // A second worker that found a quorum a moment later gets the first one's list, and tells no one.
      expect(await board.settle("d1", ["gemini", "claude"])).toEqual(["claude"]);
      expect(await board.skipped("d1")).toEqual(["claude"]);
      // A settlement that skips nothing sends no message either; the marker message below then arrives after every earlier one.
      expect(await board.settle("d2", [])).toEqual([]);
      await board.settle("d3", ["openai"]);
      await lastHeard;
      expect(cancelled).toEqual(["d1/claude", "d3/openai"]);
    } finally {
      await listener.close();
      await redis.del(`${prefix}:quorum:d1:settled`, `${prefix}:quorum:d2:settled`, `${prefix}:quorum:d3:settled`);
    }
  });
});
