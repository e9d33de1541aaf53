import { aggregate } from "mingo";
import { describe, expect, it } from "vitest";
import { ADMIN_PERIODS } from "@sd/contracts";
import type { Pipeline } from "../../collection";
import { healthFiguresPipeline, recentDecisionsPipeline, usageStatsPipeline } from "../../decisions/admin-stats";
import { compiledShapeCount, compilePipeline, NotCompilable } from "./compiled-pipeline";
import { MINGO_OPTIONS } from "./mingo-options";

const NOW = new Date("2025-03-10T12:00:00.000Z");
const DAY = 86_400_000;

/** Decision-shaped documents with every variant the admin pipelines distinguish (seeded, so reproducible). */
function documents(count: number): Record<string, unknown>[] {
  let state = 42;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
  return Array.from({ length: count }, (_, n) => {
    const signedIn = random() < 0.6;
    const user = `u${Math.floor(random() * 15)}`;
    return {
      _id: `d${String(n).padStart(5, "0")}`,
      question: `Q${n}?`,
      // Some after now, some older than a month, and exact ties on the timestamp.
      timestamp: new Date(NOW.getTime() - Math.floor(random() * 35 * DAY) + (n % 17 === 0 ? DAY : 0)),
      categories: ["A", "B"],
      final_decision: random() < 0.2 ? null : ["Go", "Rust", "Zig", "TypeScript", "Java", "Kotlin", "Elm"][Math.floor(random() * 7)],
      error_details: random() < 0.15 ? { openai: "timeout" } : {},
      processing_time_ms: Math.floor(random() * 5000),
      ensemble_mode: "majority_voting",
      is_authenticated: signedIn,
      user_id: signedIn ? user : null,
      user_email: signedIn ? `${user}@example.com` : null,
      user_ip: random() < 0.1 ? null : `10.0.0.${Math.floor(random() * 9)}`,
    };
  });
}

const viaMingo = (docs: Record<string, unknown>[], pipeline: Pipeline) => structuredClone(aggregate(docs, pipeline, MINGO_OPTIONS));
const viaCompiled = (docs: Record<string, unknown>[], pipeline: Pipeline) => {
  const run = compilePipeline(pipeline);
  if (!run) throw new Error("expected the pipeline to compile");
  return structuredClone(run(docs));
};

describe("compiled pipelines (the embedded driver's fast path)", () => {
  const docs = documents(3000);

  it("gives exactly mingo's answers for the admin statistics of every period", () => {
    for (const period of ADMIN_PERIODS) {
      for (const pipeline of [usageStatsPipeline({ period, now: NOW }), recentDecisionsPipeline({ period, now: NOW }), healthFiguresPipeline({ period, now: NOW })]) {
        const expected = viaMingo(docs, pipeline);
        expect(viaCompiled(docs, pipeline), period).toStrictEqual(expected);
      }
    }
  });

  it("gives mingo's answers for projections, $min/$max, $or, $cond and $skip", () => {
    const pipeline: Pipeline = [
      { $match: { $and: [{ is_authenticated: true }, { final_decision: { $ne: null } }] } },
      { $project: { _id: 0, user_id: 1, missing: 1, slow: { $or: [{ $gt: ["$processing_time_ms", 2500] }, { $lte: ["$processing_time_ms", 10] }] }, ms: "$processing_time_ms" } },
      { $group: { _id: "$user_id", fastest: { $min: "$ms" }, slowest: { $max: "$ms" }, slow: { $sum: { $cond: { if: "$slow", then: 1, else: 0 } } } } },
      { $sort: { slow: -1, _id: 1 } },
      { $skip: 2 },
      { $limit: 5 },
    ];
    expect(viaCompiled(docs, pipeline)).toStrictEqual(viaMingo(docs, pipeline));
  });

  it("selects the top k of a $sort then $limit exactly as mingo's full stable sort does, ties included", () => {
    // Few distinct keys: many exact ties, which must keep input order.
    const input = docs.map((doc, n) => ({
      ...doc,
      bucket: n % 7,
      day: new Date(Math.floor((doc.timestamp as Date).getTime() / DAY) * DAY),
      final_decision_text: String(doc.final_decision),
      user_ip_text: String(doc.user_ip),
    }));
    for (const limit of [0, 1, 2, 17, 100, 2999, 3000, 3001, 10_000]) {
      for (const sort of [{ bucket: 1 }, { bucket: -1 }, { day: -1 }, { bucket: 1, day: -1 }, { final_decision_text: 1 }, { user_ip_text: -1, bucket: 1 }, { timestamp: -1, _id: -1 }]) {
        const pipeline: Pipeline = [{ $sort: sort }, { $limit: limit }, { $project: { _id: 1, bucket: 1 } }];
        expect(viaCompiled(input, pipeline), `${JSON.stringify(sort)} limit ${limit}`).toStrictEqual(viaMingo(input, pipeline));
      }
    }
  });

  it("gives mingo's answers for a $limit larger than its input, a lone $sort, and $sort, $skip, $limit", () => {
    const few = docs.slice(0, 40);
    for (const pipeline of [
      [{ $match: { is_authenticated: true } }, { $sort: { processing_time_ms: 1 } }, { $limit: 1000 }],
      [{ $sort: { is_authenticated_n: 1, _id: -1 } }],
      [{ $sort: { processing_time_ms: -1 } }, { $skip: 3 }, { $limit: 4 }],
      [{ $limit: 1000 }, { $skip: 39 }],
      [{ $group: { _id: "$user_ip", n: { $sum: 1 } } }, { $sort: { n: -1 } }, { $limit: 3 }, { $limit: 2 }],
    ] as Pipeline[]) {
      const input = few.map((doc) => ({ ...doc, user_ip: doc.user_ip ?? "none", is_authenticated_n: doc.is_authenticated ? 1 : 0 }));
      expect(viaCompiled(input, pipeline), JSON.stringify(pipeline)).toStrictEqual(viaMingo(input, pipeline));
    }
    expect(viaCompiled([], [{ $sort: { _id: 1 } }, { $limit: 5 }])).toStrictEqual(viaMingo([], [{ $sort: { _id: 1 } }, { $limit: 5 }]));
  });

  it("gives mingo's answers for a $facet run in one pass: facets of every shape, nested facets, and empty input", () => {
    const pipeline: Pipeline = [
      {
        $facet: {
          all: [],
          matched: [{ $match: { is_authenticated: false } }, { $limit: 7 }],
          projected: [{ $project: { _id: 0, ms: "$processing_time_ms" } }, { $skip: 2990 }],
          grouped: [{ $group: { _id: { $dateToString: { format: "%Y-%m-%d", date: "$timestamp" } }, n: { $sum: 1 } } }, { $sort: { _id: -1 } }],
          top: [{ $match: { final_decision: { $ne: null } } }, { $sort: { processing_time_ms: -1, _id: 1 } }, { $limit: 3 }],
          nested: [{ $match: { is_authenticated: true } }, { $facet: { count: [{ $group: { _id: null, n: { $sum: 1 } } }], last: [{ $sort: { timestamp: -1 } }, { $limit: 1 }] } }],
        },
      },
    ];
    expect(viaCompiled(docs, pipeline)).toStrictEqual(viaMingo(docs, pipeline));
    const facetsOnly: Pipeline = [{ $match: { _id: "none" } }, { $facet: { a: [{ $group: { _id: null, n: { $sum: 1 } } }], b: [{ $sort: { _id: 1 } }, { $limit: 2 }] } }];
    expect(viaCompiled(docs, facetsOnly)).toStrictEqual(viaMingo(docs, facetsOnly));
  });

  it("reuses a compiled pipeline for the same shape with other dates, with each call's own dates", () => {
    const before = compiledShapeCount();
    const runs = [3, 10, 20, 33].map((days) => usageStatsPipeline({ period: "week", now: new Date(NOW.getTime() - days * DAY + 12_345) }));
    const compiled = runs.map((pipeline) => compilePipeline(pipeline));
    // One shape, whatever "now" is (at most one new cache entry).
    expect(compiledShapeCount() - before).toBeLessThanOrEqual(1);
    // Interleaved runs of the cached shape each see their own dates.
    for (const i of [3, 0, 2, 1, 0]) {
      expect(structuredClone(compiled[i]?.(docs)), String(i)).toStrictEqual(viaMingo(docs, runs[i] as Pipeline));
    }
    // Other literals are part of the shape: another limit compiles anew and answers accordingly.
    const limit2: Pipeline = [{ $sort: { processing_time_ms: 1, _id: 1 } }, { $limit: 2 }];
    const limit3: Pipeline = [{ $sort: { processing_time_ms: 1, _id: 1 } }, { $limit: 3 }];
    expect(viaCompiled(docs, limit2)).toHaveLength(2);
    expect(viaCompiled(docs, limit3)).toStrictEqual(viaMingo(docs, limit3));
    // A Date is not a string that looks like one.
    const asDate: Pipeline = [{ $match: { timestamp: { $gte: NOW } } }, { $group: { _id: null, n: { $sum: 1 } } }];
    const asString: Pipeline = [{ $match: { question: { $gte: "D" } } }, { $group: { _id: null, n: { $sum: 1 } } }];
    expect(viaCompiled(docs, asDate)).toStrictEqual(viaMingo(docs, asDate));
    expect(viaCompiled(docs, asString)).toStrictEqual(viaMingo(docs, asString));
  });

  it("leaves stages and operators outside its subset to mingo", () => {
    expect(compilePipeline([{ $unwind: "$categories" }])).toBeNull();
    expect(compilePipeline([{ $match: { "user.name": "x" } }])).toBeNull();
    expect(compilePipeline([{ $match: { question: { $regex: "Q" } } }])).toBeNull();
    expect(compilePipeline([{ $group: { _id: null, all: { $push: "$_id" } } }])).toBeNull();
    expect(compilePipeline([{ $project: { question: 0 } }])).toBeNull();
  });

  it("stops with NotCompilable on values whose meaning differs between engines (the driver then runs mingo)", () => {
    const run = compilePipeline([{ $match: { categories: "A" } }]);
    // An array field matches element-wise in MongoDB: not the compiled path's job.
    expect(() => run?.([{ _id: "x", categories: ["A", "B"] }])).toThrow(NotCompilable);
    const sort = compilePipeline([{ $sort: { final_decision: 1 } }]);
    expect(() => sort?.([{ _id: "a", final_decision: "Go" }, { _id: "b", final_decision: null }])).toThrow(NotCompilable);
    // Sort keys are checked as each document arrives, top-k or not: mixed types are left to mingo.
    const topK = compilePipeline([{ $sort: { v: 1 } }, { $limit: 1 }]);
    expect(() => topK?.([{ _id: "a", v: 1 }, { _id: "b", v: "1" }])).toThrow(NotCompilable);
    expect(() => topK?.([{ _id: "a", v: "é" }])).toThrow(NotCompilable);
    const compare = compilePipeline([{ $project: { late: { $gt: ["$missing", 1] } } }]);
    expect(() => compare?.([{ _id: "a" }])).toThrow(NotCompilable);
  });
});
