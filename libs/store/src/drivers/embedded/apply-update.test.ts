import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BaseDocument } from "../../collection";
import { applyPlainUpdate, applyUpdate } from "./apply-update";

describe("applyPlainUpdate", () => {
  const key = fc.constantFrom("a", "b", "k%2E", "k__proto__", "n");
  const scalar = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom("x", "y", "zed@example.com", ""), fc.constant(null));
  const value = fc.oneof(scalar, fc.dictionary(key, scalar, { maxKeys: 3, noNullPrototype: true }), fc.array(scalar, { maxLength: 2 }));
  const doc = fc.dictionary(key, value, { maxKeys: 4, noNullPrototype: true }).map((fields) => ({ ...fields, _id: "id" }) as BaseDocument);
  const path = fc.oneof(key, fc.tuple(key, key).map(([a, b]) => `${a}.${b}`), fc.tuple(key, key, key).map(([a, b, c]) => `${a}.${b}.${c}`));
  const operator = fc.constantFrom("$set", "$setOnInsert", "$inc", "$max", "$unset");
  const update = fc
    .array(fc.tuple(operator, path, fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom("x", "y", "amy@example.com"), fc.dictionary(key, scalar, { maxKeys: 2, noNullPrototype: true }))), {
      minLength: 1,
      maxLength: 4,
    })
    .map((changes) => {
      const built: Record<string, Record<string, unknown>> = {};
      for (const [op, at, to] of changes) (built[op] ??= {})[at] = to;
      return built;
    });

  it("applies $set, $setOnInsert, $inc and $max as mingo does, or leaves the update to mingo", () => {
    let applied = 0;
    fc.assert(
      fc.property(doc, update, fc.boolean(), (current, changes, isInsert) => {
        const before = structuredClone(current);
        const plain = applyPlainUpdate(current, changes, isInsert);
        expect(current).toStrictEqual(before);
        if (plain === null) return;
        applied += 1;
        expect(plain).toStrictEqual(applyUpdate(current, changes, isInsert).doc);
      }),
      { numRuns: 3000 },
    );
    // Most generated updates are within its operators, or the property would prove little.
    expect(applied).toBeGreaterThan(500);
  });

  it("leaves other operators, array paths and overlapping paths to mingo", () => {
    const current = { _id: "id", list: [1], n: { a: 1 } } as BaseDocument;
    expect(applyPlainUpdate(current, { $push: { list: 2 } }, false)).toBeNull();
    expect(applyPlainUpdate(current, { $inc: { "list.0": 1 } }, false)).toBeNull();
    expect(applyPlainUpdate(current, { $inc: { "n.a": 1 }, $set: { n: {} } }, false)).toBeNull();
    expect(applyPlainUpdate(current, [{ $set: { x: 1 } }], false)).toBeNull();
    expect(applyPlainUpdate(current, { $inc: { "n.a": 2, "n.b": 1 }, $max: { "e.a": "x" } }, false)).toEqual({ _id: "id", list: [1], n: { a: 3, b: 1 }, e: { a: "x" } });
  });
});
