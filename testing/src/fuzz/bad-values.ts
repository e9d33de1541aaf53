import fc from "fast-check";
import { Deep, Huge, own, type Text } from "./tokens";

/**
 * The bad values the fuzz suite mixes into otherwise valid requests. None of the hand-written ones
 * contains what a leak check looks for ("    at ", ".ts:", "/work/", "node_modules", "Error:"), so
 * an answer that echoes them is never mistaken for a leak.
 */

/** Key that a prototype-pollution payload tries to plant; it must never show up anywhere else. */
export const POLLUTION_MARKER = "sdFuzzPolluted";

/** Keys that reach an object's prototype, or look like MongoDB operators, when merged naively. */
export const DANGEROUS_KEYS = ["__proto__", "constructor", "prototype", "$where", "$ne", "$gt", "$expr", "__defineGetter__", "hasOwnProperty"] as const;

/** Strings that break naive handling: lone surrogates, NUL, RTL and zero-width marks, emoji, injections. */
const NASTY_STRINGS = [
  "\uD800",
  "\uDFFF",
  "ok\uD83D",
  "\u0000",
  "a\u0000b",
  "\u202Eevil\u202C",
  "\u200B\u200C\u200D",
  "\uFEFF",
  "\uFFFF\uFFFE",
  "👍🏽",
  "👨‍👩‍👧‍👦",
  "e\u0301\u0301\u0301",
  "\u2028\u2029",
  "مرحبا بالعالم",
  "𝕏𝔂𝔷",
  "\r\n\r\n",
  "\\",
  '"',
  "%00",
  "%",
  "../../../etc/passwd",
  "<script>alert(1)</script>",
  "{{7*7}}",
  "${7*7}",
  "' OR '1'='1",
  "[object Object]",
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "$where",
  "$ne",
  "NaN",
  "undefined",
  "null",
  "-1",
  "1e309",
  " ",
  "",
] as const;

export const unicodeString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.array(fc.constantFrom(...NASTY_STRINGS), { minLength: 2, maxLength: 5 }).map((parts) => parts.join("")),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
);

/** Up to ~1 MB; rare in every mix, so a run sends a few only. */
export const hugeText: fc.Arbitrary<Huge> = fc
  .tuple(fc.integer({ min: 5_000, max: 1_000_000 }), fc.constantFrom("a", "é", "\uD800", "😀", " ", "\u0000", "$ne"))
  .map(([count, unit]) => new Huge(unit, Math.ceil(count / (JSON.stringify(unit).length - 2))));

/** `{ "$op": value }` as MongoDB would read it, in place of a string. */
export const operatorObject: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.constantFrom("$ne", "$gt", "$gte", "$lt", "$regex", "$where", "$exists", "$in", "$nin", "$expr", "$or", "$function"),
    fc.oneof(
      fc.constantFrom<unknown>(null, "", "x", 1, true, ".*", "sleep(100) || true", "function () { return true; }", [], ["a"], {}, [{}]),
      fc.string({ maxLength: 10 }),
    ),
  )
  .map(([operator, value]) => own([[operator, value]]));

/** Objects that try to reach Object.prototype when merged or assigned key by key. */
export const pollutionObject: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom(
  own([["__proto__", own([[POLLUTION_MARKER, true]])]]),
  own([["constructor", own([["prototype", own([[POLLUTION_MARKER, true]])]])]]),
  own([["prototype", own([[POLLUTION_MARKER, true]])]]),
  own([["__proto__", own([["toString", POLLUTION_MARKER]])]]),
);

/** A data URL, or something that looks like one, that no image field may accept. */
export const badDataUrl: fc.Arbitrary<Text> = fc.oneof(
  fc.constantFrom<Text>(
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "data:text/html,<h1>hi</h1>",
    "data:image/png;base64,@@@@not base64@@@@",
    "data:image/png,iVBORw0KGgo",
    "data:image/png;base64",
    "data:image/png;base64iVBORw0KGgo=",
    "data:;base64,iVBORw0KGgo=",
    "data:image/png;base64,iVBORw0KGgo=====",
    "data:image/png;base64, iVBORw0KGgo=",
    "data:image/png;base64,iVBO\u0000Rw0KGgo=",
    "data:application/pdf;base64,JVBERi0xLjQK",
    "data:image/png;charset=utf-8;base64,iVBORw0KGgo=",
    "javascript:alert(1)",
    "file:///etc/passwd",
    "http://127.0.0.1:6379/",
    "data:",
  ),
  // Huge, with a bad tail, so it is refused for its content, not only its size.
  fc.integer({ min: 10_000, max: 1_000_000 }).map((count) => new Huge("A", count, "data:image/png;base64,", "!!")),
);

/** Any JSON value of a type no string field takes. */
export const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A field's value nested 10,000 levels deep. */
export const deepValue: fc.Arbitrary<Deep> = fc
  .tuple(fc.constantFrom(1_000, 10_000), fc.constantFrom<"array" | "object">("array", "object"))
  .map(([levels, kind]) => new Deep(levels, kind));

/** What the fuzz suite puts in a JSON field: mostly small bad values, sometimes huge or deep ones. */
export const badJsonValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: wrongType },
  { weight: 4, arbitrary: operatorObject },
  { weight: 2, arbitrary: pollutionObject },
  { weight: 4, arbitrary: unicodeString },
  { weight: 2, arbitrary: badDataUrl },
  { weight: 1, arbitrary: hugeText },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: fc.array(unicodeString, { minLength: 21, maxLength: 200 }) },
);
