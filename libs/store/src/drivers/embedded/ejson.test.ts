import { mongo } from "mongoose";
import { describe, expect, it } from "vitest";
import { decodeEjson, encodeEjson } from "./ejson";

const { EJSON } = mongo.BSON;

describe("decodeEjson", () => {
  const values: [string, unknown][] = [
    ["a document with dates at every depth", { _id: "a", at: new Date("2024-05-01T10:00:00.123Z"), list: [new Date(0), { when: new Date("1999-12-31T23:59:59Z") }], n: 1.5, ok: true, none: null }],
    ["dates EJSON writes as $numberLong", { before1970: new Date(-86_400_000), after9999: new Date(Date.UTC(10000, 0, 1)) }],
    ["numbers EJSON wraps", { nan: Number.NaN, inf: Number.POSITIVE_INFINITY, negativeZero: -0, big: 2 ** 53 }],
    ["strings that look like Extended JSON", { text: '{"$date":"2024-01-01T00:00:00Z"}', dollar: "$set", key: "__proto__" }],
    ["awkward keys", { ["__proto__"]: { polluted: true }, "a.b": 1 }],
  ];

  for (const [name, value] of values) {
    it(`reads ${name} exactly as EJSON.parse does`, () => {
      const text = encodeEjson(value);
      const ours = decodeEjson(text);
      expect(ours).toEqual(EJSON.parse(text, { relaxed: true }));
      expect(Object.getPrototypeOf(ours)).toBe(Object.prototype);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });
  }

  it("reads an object holding a string $date and other fields as that date, like EJSON", () => {
    const text = '{"x":{"$date":"2024-01-02T03:04:05Z","extra":1}}';
    expect(decodeEjson(text)).toEqual(EJSON.parse(text, { relaxed: true }));
    expect((decodeEjson(text) as { x: unknown }).x).toEqual(new Date("2024-01-02T03:04:05Z"));
  });

  it("refuses what EJSON refuses", () => {
    expect(() => decodeEjson('{"a\\u0000b":1}')).toThrow();
    expect(() => decodeEjson('{"a":')).toThrow();
  });
});
