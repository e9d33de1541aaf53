import { ENSEMBLE_MODES, StoredDecisionSchema, type EnsembleRecord, type StoredDecision } from "@sd/contracts";
import fc from "fast-check";
import { mongo } from "mongoose";
import { readFile } from "node:fs/promises";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { Collection } from "../collection";
import { defineCollection } from "../collection-spec";
import type { StoreDriver } from "../driver";
import { journalPath } from "../drivers/embedded/embedded-collection";
import { encodeEjson } from "../drivers/embedded/ejson";
import { openEmbeddedDriver } from "../drivers/embedded/open-embedded-driver";
import { castAndValidate, detachedModel } from "../drivers/embedded/schema-models";
import { openMongoDriver } from "../drivers/mongo/open-mongo-driver";
import { freshMongoDatabase } from "../testing/both-drivers";
import { mongoForTests } from "../testing/mongo-for-tests";
import { sampleDecision } from "../testing/sample-decision";
import { makeTempDir } from "../testing/temp-dir";
import { toDecisionDocument } from "./mapping";
import { createDecisionRepository } from "./repository";
import { decisionRollupsCollection, rollupSchema, type RollupDocument } from "./rollup-schema";
import { decisionSchema, decisionsCollection, type DecisionDocument } from "./schema";

/**
 * `insertOnce` (the aggregator's hot insert) checks a decision with the shared `StoredDecisionSchema`
 * and inserts it with `insertOnePrevalidated`, skipping mongoose's cast and validation. These tests
 * show that nothing changes for readers or for validation: the stored document is the one the cast
 * stores, byte for byte, and the contract refuses exactly what the schema refuses.
 */

const { EJSON } = mongo.BSON;

/** Canonical Extended JSON keeps field order and every type (Date, int32 or double), so equal text is an equal document. */
const canonical = (doc: unknown) => EJSON.stringify(doc, { relaxed: false });

const judgeRecord: EnsembleRecord = {
  mode: "judge",
  panel: ["openai", "gemini"],
  weights: {},
  rounds: [
    [
      { provider: "openai", round: 1, category: "Go", confidence: 0.5, reason: "Simple.", error: null },
      { provider: "gemini", round: 1, category: null, confidence: null, reason: null, error: "timeout" },
    ],
  ],
  judge: { provider: "claude", category: "Go", reason: "Fewer moving parts.", error: null, fallback: false },
  early_quorum: null,
};

const awkwardCategories = ["v1.2", "$set", "__proto__", "", "ünï cødé"].filter(Boolean);
const { ensemble: _absent, ...withoutEnsemble } = sampleDecision({ id: "no-ensemble-field" });

/** Decisions covering every field's shapes: nulls, empty maps, an ensemble record or none, awkward category names, big and fractional numbers. */
const decisions: StoredDecision[] = [
  sampleDecision(),
  withoutEnsemble,
  sampleDecision({ id: "null-ensemble", ensemble: null }),
  sampleDecision({
    id: "judge",
    ensemble_mode: "judge",
    ensemble: judgeRecord,
    final_decision: null,
    categories: awkwardCategories,
    vote_counts: Object.fromEntries(awkwardCategories.map((category, n) => [category, n])),
    individual_responses: { openai: "Go", gemini: null },
    raw_responses: { openai: "Go.", gemini: null },
    confidence_scores: { openai: 0.5, gemini: null },
    rationales: { openai: "Simple.", gemini: null },
    error_details: { gemini: "timeout" },
    token_usage: { openai: { input_tokens: 10, output_tokens: 2 }, gemini: null },
    user_id: null,
    user_ip: null,
    user_email: null,
    is_authenticated: false,
    context_explanation: "",
    images: ["judge-image1", "judge-image2"],
    api_key_id: "key-1",
    processing_time_ms: 2 ** 40,
    total_votes: 0,
    cost_usd: 0.000123,
    model_latencies_ms: { openai: 0, gemini: null },
    model_costs_usd: { openai: 0.000123, gemini: 0 },
  }),
  sampleDecision({ id: "empty-maps", individual_responses: {}, raw_responses: {}, confidence_scores: {}, rationales: {}, model_versions: {}, token_usage: {}, model_latencies_ms: {}, model_costs_usd: {}, vote_counts: {}, categories: [] }),
];

interface DriverUnderTest {
  driver: StoreDriver;
  /** The decisions journal file of a collection (embedded only), to compare bytes on disk. */
  journal?: (collection: string) => Promise<string>;
  dispose(): Promise<void>;
}

/** The same schema under another name: a collection written the old way, through the cast. */
const castDecisionsCollection = defineCollection<DecisionDocument>("decisions_cast", decisionSchema);
const castRollupsCollection = defineCollection<RollupDocument>("decision_rollups_cast", rollupSchema);

function describeSameDocumentBothWays(driverName: string, open: () => Promise<DriverUnderTest>): void {
  describe(`a prevalidated decision insert stores what the cast stores (${driverName})`, () => {
    let subject: DriverUnderTest | null = null;
    afterEach(async () => {
      await subject?.dispose();
      subject = null;
    });

    it("gives the same findById answer and the same stored document, field order and types included", async () => {
      subject = await open();
      const prevalidated = await subject.driver.openCollection(decisionsCollection);
      const cast: Collection<DecisionDocument> = await subject.driver.openCollection(castDecisionsCollection);
      const repository = createDecisionRepository(prevalidated, await subject.driver.openCollection(decisionRollupsCollection));
      const castRepository = createDecisionRepository(cast, await subject.driver.openCollection(castRollupsCollection));
      for (const decision of decisions) {
        expect(await repository.insertOnce(decision), decision.id).toBe(true);
        // The way every insert went before: mongoose casts and validates the document.
        await cast.insertOne(toDecisionDocument(decision));
      }
      for (const { id } of decisions) {
        const read = await repository.findById(id);
        expect(read, id).toStrictEqual(await castRepository.findById(id));
        expect(read?.timestamp, id).toBeInstanceOf(Date);
        expect(canonical(await prevalidated.findOne({ _id: id })), id).toBe(canonical(await cast.findOne({ _id: id })));
      }
      expect(await repository.findById("judge")).toStrictEqual(decisions[3]);
      if (subject.journal) expect(await subject.journal(decisionsCollection.name)).toBe(await subject.journal(castDecisionsCollection.name));
    });

    it("still refuses a duplicate id with 11000, as insertOnce's false", async () => {
      subject = await open();
      const repository = createDecisionRepository(await subject.driver.openCollection(decisionsCollection), await subject.driver.openCollection(decisionRollupsCollection));
      expect(await repository.insertOnce(sampleDecision())).toBe(true);
      expect(await repository.insertOnce(sampleDecision({ question: "Again?" }))).toBe(false);
      expect((await repository.findById("dec-1"))?.question).toBe("Which language should we use?");
    });
  });
}

describeSameDocumentBothWays("embedded", async () => {
  const dir = await makeTempDir();
  const driver = await openEmbeddedDriver(dir.path);
  return {
    driver,
    journal: (collection) => readFile(journalPath(dir.path, collection), "utf8"),
    async dispose() {
      await driver.close();
      await dir.remove();
    },
  };
});

const mongoServer = await mongoForTests();
if (mongoServer.url === null) console.warn(`Skipping the MongoDB run of the prevalidated-insert comparison: ${mongoServer.reason}.`);
else afterAll(() => mongoServer.stop());
describe.skipIf(mongoServer.url === null)("MongoDB driver", () => {
  describeSameDocumentBothWays("mongo", async () => {
    const database = freshMongoDatabase(mongoServer.url ?? "");
    const driver = await openMongoDriver(database.url);
    return {
      driver,
      async dispose() {
        await driver.close();
        await database.drop();
      },
    };
  });
});

describe("StoredDecisionSchema and the decisions schema", () => {
  const model = detachedModel(decisionsCollection.name, decisionsCollection.schema);
  const validKey = fc.constantFrom("openai", "gemini", "", "x$", "ünï");
  /** Provider ids and category names, the awkward ones included: dots, dollars, prototype names, empty. */
  const anyKey = fc.oneof(validKey, fc.constantFrom("a.b", "$x", "__proto__", "constructor", "prototype"));
  const anyText = fc.oneof(fc.constantFrom("", "Go", "$set", "a.b"), fc.string({ maxLength: 6 }));
  const text = anyText.filter((value) => value !== "");
  const anyNumber = fc.oneof(fc.constantFrom(0, -0, 1, 0.5, -1, 1.5, 2 ** 40), fc.double({ noNaN: true, noDefaultInfinity: true, min: -2, max: 2 }));
  const number = fc.oneof(fc.constantFrom(0, 1, 0.5, 1.5, 2 ** 40), fc.double({ noNaN: true, min: 0, max: 2 }));
  const fraction = fc.double({ noNaN: true, min: 0, max: 1 });
  const anyCount = fc.oneof(fc.nat(1_000), fc.constantFrom(-1, 2.5));
  /** A record whose every key is an own property, "__proto__" included (as JSON.parse and Object.fromEntries make them). */
  const record = <V>(keys: fc.Arbitrary<string>, value: fc.Arbitrary<V>) => fc.array(fc.tuple(keys, value), { maxLength: 3 }).map((entries) => Object.fromEntries(entries));
  const usage = (counts: fc.Arbitrary<number>) => fc.option(fc.record({ input_tokens: counts, output_tokens: counts }));
  const modes = [...ENSEMBLE_MODES, "dictatorship" as (typeof ENSEMBLE_MODES)[number]];

  /** Per field: values the schema stores, and any value of the field's type (valid or not). */
  const fields: Record<keyof StoredDecision, [fc.Arbitrary<unknown>, fc.Arbitrary<unknown>]> = {
    id: [fc.constant("d1"), fc.constantFrom("d1", "")],
    question: [text, anyText],
    timestamp: [fc.date({ noInvalidDate: true }), fc.date({ noInvalidDate: false })],
    categories: [fc.array(anyText, { maxLength: 3 }), fc.array(anyText, { maxLength: 3 })],
    final_decision: [fc.option(anyText), fc.option(anyText)],
    vote_counts: [record(text, number), record(anyText, anyNumber)],
    total_votes: [number, anyNumber],
    context_explanation: [anyText, anyText],
    individual_responses: [record(validKey, fc.option(anyText)), record(anyKey, fc.option(anyText))],
    raw_responses: [record(validKey, fc.option(anyText)), record(anyKey, fc.option(anyText))],
    confidence_scores: [record(validKey, fc.option(fraction)), record(anyKey, fc.option(anyNumber))],
    rationales: [record(validKey, fc.option(anyText)), record(anyKey, fc.option(anyText))],
    model_versions: [record(validKey, anyText), record(anyKey, anyText)],
    error_details: [record(validKey, anyText), record(anyKey, anyText)],
    processing_time_ms: [number, anyNumber],
    ensemble_mode: [fc.constantFrom(...ENSEMBLE_MODES), fc.constantFrom(...modes)],
    ensemble: [fc.constantFrom(null, undefined, judgeRecord), fc.constantFrom(null, undefined, judgeRecord)],
    is_authenticated: [fc.boolean(), fc.boolean()],
    user_id: [fc.option(anyText), fc.option(anyText)],
    user_ip: [fc.option(anyText), fc.option(anyText)],
    user_email: [fc.option(anyText), fc.option(anyText)],
    images: [fc.array(anyText, { maxLength: 2 }), fc.array(anyText, { maxLength: 2 })],
    api_key_id: [fc.option(anyText), fc.option(anyText)],
    token_usage: [record(validKey, usage(fc.nat(1_000))), record(anyKey, usage(anyCount))],
    cost_usd: [number, anyNumber],
    model_latencies_ms: [record(validKey, fc.option(number)), record(anyKey, fc.option(anyNumber))],
    model_costs_usd: [record(validKey, number), record(anyKey, anyNumber)],
    rerun_of: [fc.constantFrom(null, undefined, "d0"), fc.constantFrom(null, undefined, "", "d0")],
  };
  const names = Object.keys(fields) as (keyof StoredDecision)[];
  /** A valid decision with one field (or none, or every one) replaced by any value of its type. */
  const decision = fc.constantFrom<keyof StoredDecision | "none" | "all">("none", "all", ...names).chain(
    (loose) =>
      fc.record(Object.fromEntries(names.map((name) => [name, fields[name][loose === name || loose === "all" ? 1 : 0]])), { requiredKeys: names.filter((name) => name !== "ensemble") }) as unknown as fc.Arbitrary<StoredDecision>,
  );

  it("accepts exactly the decisions the schema's cast accepts, and builds the very document the cast stores", async () => {
    let accepted = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(decision, async (candidate) => {
        const checked = StoredDecisionSchema.safeParse(candidate);
        const cast = await castAndValidate<DecisionDocument>(model, toDecisionDocument(candidate)).then(
          (doc) => ({ ok: true as const, doc }),
          (error: unknown) => ({ ok: false as const, error }),
        );
        expect(checked.success, checked.success ? `the cast refused: ${String(!cast.ok && cast.error)}` : checked.error.message).toBe(cast.ok);
        if (!cast.ok) refused += 1;
        if (checked.success && cast.ok) {
          accepted += 1;
          expect(encodeEjson(toDecisionDocument(checked.data))).toBe(encodeEjson(cast.doc));
        }
      }),
      { numRuns: 500 },
    );
    // Both answers occur often, or the property would prove little.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });
});
