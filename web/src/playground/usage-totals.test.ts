import { describe, expect, it } from "vitest";
import type { VoteStats } from "./decision-run";
import type { ModelRow } from "./live-rows";
import { usageTotals } from "./usage-totals";
import { NO_COST_SIMULATED, statsParts, TOKENS_NOT_REPORTED, totalsParts } from "./usage-text";

const stats = (latencyMs: number, input: number | null, output: number, costUsd: number): VoteStats => ({
  latencyMs,
  usage: input === null ? null : { input_tokens: input, output_tokens: output },
  costUsd,
});
const row = (id: string, current: VoteStats | null, { earlier = [], simulated = false, kind = "model" }: { earlier?: (VoteStats | null)[]; simulated?: boolean; kind?: ModelRow["kind"] } = {}): ModelRow => ({
  key: `${kind}:${id}`,
  id,
  kind,
  label: id,
  status: current ? "success" : "pending",
  response: current ? "Yes" : null,
  modelVersion: null,
  confidence: null,
  rationale: null,
  round: null,
  earlier: earlier.map((s, index) => ({ round: index + 1, status: "success", response: "Yes", confidence: null, rationale: null, stats: s })),
  stats: current,
  simulated,
});

describe("usageTotals", () => {
  it("adds every call of every row: each gossip round and the judge", () => {
    const totals = usageTotals([
      row("openai", stats(900, 1200, 30, 0.0033), { earlier: [stats(800, 1000, 20, 0.0027)] }),
      row("gemini", stats(1500, 800, 10, 0.000265)),
      row("openai", stats(400, 300, 5, 0.0008), { kind: "judge" }),
    ]);
    expect(totals).toMatchObject({ inputTokens: 3300, outputTokens: 65, calls: 4, callsWithTokens: 4, allSimulated: false });
    expect(totals.costUsd).toBeCloseTo(0.007065, 9);
  });

  it("leaves out rows without figures yet, simulated token estimates and unreported tokens", () => {
    const totals = usageTotals([row("openai", stats(900, 100, 10, 0.001)), row("gemini", null), row("claude", stats(100, 500, 50, 0), { simulated: true }), row("llama", stats(50, null, 0, 0))]);
    expect(totals).toEqual({ costUsd: 0.001, inputTokens: 100, outputTokens: 10, calls: 3, callsWithTokens: 1, allSimulated: false });
  });

  it("knows when every call was simulated", () => {
    expect(usageTotals([row("claude", stats(100, 500, 50, 0), { simulated: true })]).allSimulated).toBe(true);
    expect(usageTotals([]).calls).toBe(0);
  });
});

describe("what the rows and the card say", () => {
  it("a real call: latency, tokens in / out and cost; a vendor that reported no tokens says so", () => {
    expect(statsParts(stats(850, 1234, 56, 0.0042), false)).toEqual(["850ms", "1,234 in / 56 out tokens", "$0.0042"]);
    expect(statsParts(stats(1234, null, 0, 0), false)).toEqual(["1.23s", TOKENS_NOT_REPORTED, "$0.00"]);
  });

  it("a simulated call: its latency and no cost, never its made-up tokens", () => {
    expect(statsParts(stats(120, 500, 50, 0), true)).toEqual(["120ms", NO_COST_SIMULATED]);
  });

  it("the totals: cost and tokens, or no cost when every call was simulated", () => {
    expect(totalsParts({ costUsd: 0.0123, inputTokens: 2000, outputTokens: 75, calls: 3, callsWithTokens: 3, allSimulated: false })).toEqual([
      ["Total cost", "$0.0123"],
      ["Tokens", "2,000 in / 75 out tokens"],
    ]);
    expect(totalsParts({ costUsd: 0, inputTokens: 0, outputTokens: 0, calls: 1, callsWithTokens: 0, allSimulated: true })).toEqual([["Total cost", NO_COST_SIMULATED]]);
  });
});
