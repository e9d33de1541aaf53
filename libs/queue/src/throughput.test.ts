import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { ThroughputReader, ThroughputRecorder, THROUGHPUT_WINDOW_MS } from "./throughput";

const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
afterAll(() => redis.disconnect());

/** A recorder and a reader on their own key prefix; `now` is passed explicitly, so no test waits. */
function figures(horizonMs = 60_000) {
  const prefix = `sdtest-throughput-${randomUUID().slice(0, 8)}`;
  const reader = new ThroughputReader(redis, prefix, ["openai", "claude"], horizonMs);
  return { recorder: new ThroughputRecorder(redis, prefix, horizonMs), reader };
}

describe("live throughput figures", () => {
  it("counts decisions finished in the last whole second and those still in flight", async () => {
    const { recorder, reader } = figures();
    const t = 1_700_000_000_000;
    for (const id of ["a", "b", "c"]) await recorder.decisionStarted(id, t);
    await recorder.decisionEnded("a", true, t + 200);
    await recorder.decisionEnded("b", true, t + 900);
    // Never enqueued after all: out of flight, not counted as finished.
    await recorder.decisionEnded("c", false, t + 950);
    await recorder.decisionStarted("d", t + 1100);
    const next = await reader.read(t + 1020);
    expect(next).toMatchObject({ decisions_per_second: 2, decisions_in_flight: 1 });
    expect((await reader.read(t + 2020)).decisions_per_second).toBe(0);
    await reader.close();
  });

  it("forgets a decision in flight past the horizon (a crashed gateway or aggregator)", async () => {
    const { recorder, reader } = figures(5_000);
    const t = Date.now();
    await recorder.decisionStarted("lost", t);
    await recorder.decisionStarted("recent", t + 4_000);
    expect((await reader.read(t + 4_500)).decisions_in_flight).toBe(2);
    expect((await reader.read(t + 6_000)).decisions_in_flight).toBe(1);
    await reader.close();
  });

  it("gives each provider's votes, nearest-rank p50/p95 and error rate over the last minute only", async () => {
    const { recorder, reader } = figures();
    const t = Date.now();
    await recorder.voteFinished("openai", "old:1", 9_999, false, t - THROUGHPUT_WINDOW_MS - 1);
    for (let i = 1; i <= 20; i++) await recorder.voteFinished("openai", `job-${i}:1`, i * 10, i !== 20, t - 1000 + i);
    const { providers } = await reader.read(t);
    expect(providers.openai).toEqual({ votes: 20, latency_p50_ms: 100, latency_p95_ms: 190, error_rate: 0.05 });
    expect(providers.claude).toEqual({ votes: 0, latency_p50_ms: null, latency_p95_ms: null, error_rate: 0 });
    await reader.close();
  });
});
