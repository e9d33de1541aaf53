import fc from "fast-check";
import { POLLUTION_MARKER, unicodeString } from "./bad-values";
import { Huge, type Text } from "./tokens";

/** Bad path parameters, query strings, headers and credentials, in the form they travel on the wire. */

/** Percent-encodes the UTF-8 bytes of `text` except the unreserved characters (lone surrogates become U+FFFD). */
export function percentEncode(text: string): string {
  let encoded = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return encoded;
}

/** A path parameter no user owns, already percent-encoded (or deliberately malformed). */
export const badPathValue: fc.Arbitrary<Text> = fc.oneof(
  { weight: 2, arbitrary: fc.uuid() },
  {
    weight: 4,
    arbitrary: fc.constantFrom<Text>(
      "%",
      "%ZZ",
      "%E0%A4%A",
      "%ED%A0%80",
      "%C0%AF",
      "%FF%FE",
      "%00",
      "%2F",
      "..%2F..%2Fetc%2Fpasswd",
      "%2e%2e",
      "__proto__",
      "constructor",
      "prototype",
      "%24ne",
      "%7B%22%24ne%22%3Anull%7D",
      "%5Bobject%20Object%5D",
      "null",
      "undefined",
      "0",
      "-1",
      "%20",
      "%F0%9F%91%8D",
      "%E2%80%AEevil",
      "",
    ),
  },
  { weight: 3, arbitrary: unicodeString.map(percentEncode) },
  // Past Node's 16 KB header limit at the top end (a 431).
  { weight: 1, arbitrary: fc.integer({ min: 500, max: 20_000 }).map((count) => new Huge("a", count)) },
);

/** One `name=value` of a query string; `raw` pairs are written without encoding (brackets, `$`). */
export interface QueryPair {
  name: Text;
  value: Text;
  raw?: boolean;
}

const OPERATOR_SUFFIXES = ["[$ne]", "[$gt]", "[$where]", "[$regex]", "[$in][]", "[]", "[0]", ".$ne", "[__proto__]"] as const;

const badQueryValue: fc.Arbitrary<Text> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom<Text>(
      "abc",
      "-1",
      "1.5",
      "1e3",
      "0x10",
      "99999999999",
      " 5",
      "2024-02-30",
      "2024-13-01",
      "yesterday",
      "2024-01-01T25:00:00Z",
      "TRUE",
      "yes",
      "DAY",
      "weeks",
      "[]",
      "{}",
      '{"$ne":null}',
    ),
  },
  { weight: 3, arbitrary: unicodeString },
  { weight: 1, arbitrary: fc.integer({ min: 200, max: 15_000 }).map((count) => new Huge("9", count)) },
);

/**
 * Query pairs a declared query schema refuses (or may refuse: the suite checks): a bad value, a
 * repeated parameter, an operator or nested name (`limit[$ne]=1`, `$where=`), prototype paths.
 */
export function badQueryPairs(declared: readonly string[]): fc.Arbitrary<QueryPair[]> {
  const name = fc.constantFrom(...declared);
  const one = fc.oneof(
    fc.tuple(name, badQueryValue).map(([n, value]) => [{ name: n, value }]),
    fc.tuple(name, fc.string({ maxLength: 6 }), fc.string({ maxLength: 6 })).map(([n, a, b]) => [
      { name: n, value: a },
      { name: n, value: b },
    ]),
    fc.tuple(name, fc.constantFrom(...OPERATOR_SUFFIXES), fc.string({ maxLength: 6 }), fc.boolean()).map(([n, suffix, value, raw]) => [
      { name: `${n}${suffix}`, value, raw },
    ]),
    fc.constantFrom<QueryPair[]>(
      [{ name: "$where", value: "sleep(100)", raw: true }],
      [{ name: `__proto__[${POLLUTION_MARKER}]`, value: "1", raw: true }],
      [{ name: `constructor[prototype][${POLLUTION_MARKER}]`, value: "1", raw: true }],
      [{ name: `__proto__.${POLLUTION_MARKER}`, value: "1" }],
    ),
  );
  return fc.array(one, { minLength: 1, maxLength: 3 }).map((groups) => groups.flat());
}

/** Values a declared query parameter may well accept, but that test its edges: regex syntax, odd dates, unicode. */
export const edgeQueryValue: fc.Arbitrary<Text> = fc.oneof(
  fc.constantFrom<Text>(
    "(a+)+$",
    ".*",
    "[",
    "\\",
    "(?=",
    "a{1000000}",
    "^$",
    "0",
    "000000200",
    "200",
    "0000-01-01",
    "2024-02-29",
    "9999-12-31T23:59:59.999Z",
    "+275760-09-13T00:00:00.000Z",
    "2024-01-01T00:00:00+14:00",
    "true",
    "false",
    "day",
    "month",
  ),
  unicodeString,
);

/** Edge values for some of the declared query parameters. */
export function edgeQueryPairs(declared: readonly string[]): fc.Arbitrary<QueryPair[]> {
  return fc.array(fc.record({ name: fc.constantFrom(...declared), value: edgeQueryValue }), { maxLength: 3 });
}

/** Parameters no route declares; a route must ignore them (or refuse them), never act on them. */
export const junkQueryPairs: fc.Arbitrary<QueryPair[]> = fc.array(
  fc.oneof(
    fc.record({ name: fc.constantFrom("utm_source", "callback", "x", "__proto__", "constructor", "prototype", "_method"), value: unicodeString }),
    fc.record({ name: unicodeString.filter((s) => s.length > 0), value: fc.string({ maxLength: 8 }) }),
    fc.constantFrom<QueryPair>(
      { name: `__proto__[${POLLUTION_MARKER}]`, value: "1", raw: true },
      { name: `constructor[prototype][${POLLUTION_MARKER}]`, value: "1", raw: true },
      { name: "a[$ne]", value: "1", raw: true },
      { name: "x", value: "1" },
    ),
  ),
  { maxLength: 3 },
);

/** Headers a client may send with any request; none may change what is refused, or turn an answer into HTML. */
export const noiseHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    accept: fc.constantFrom("text/html", "*/*", "application/xml", "text/html,application/xhtml+xml;q=0.9", "image/png"),
    "x-forwarded-for": fc.constantFrom("203.0.113.9", "127.0.0.1, 10.0.0.1", "::1", "garbage", "\xff\xfe"),
    "accept-language": fc.constantFrom("ar-EG", "*", "x\xe9"),
    "x-http-method-override": fc.constantFrom("DELETE", "PUT", "GET"),
    origin: fc.constantFrom("http://evil.example", "null"),
    "x-request-id": fc.constantFrom("../../etc", "%00", "\xff"),
  },
  { requiredKeys: [] },
);

/** Header values a declared header (e.g. Idempotency-Key) refuses, or that test its edges. */
export const badHeaderValue: fc.Arbitrary<Text | Text[]> = fc.oneof(
  fc.integer({ min: 256, max: 12_000 }).map((count) => new Huge("k", count)),
  fc.constantFrom<Text | Text[]>("", " ", "a b", "\xff\xfe", "respond-async; wait=-1", '{"$ne":null}', ["one", "two"], "\t"),
);

/** A credential header the server must refuse; the user's own token tampered with is resolved when sent. */
export class TamperedUserToken {
  [fc.toStringMethod](): string {
    return "the user's access token with its signature changed";
  }
}

export interface BadCredentials {
  authorization?: Text | Text[] | TamperedUserToken;
  apiKey?: Text | Text[];
}

const NONE_JWT = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJ4IiwiZW1haWwiOiJhZG1pbkBleGFtcGxlLmNvbSJ9.";

export const badCredentials: fc.Arbitrary<BadCredentials> = fc.record(
  {
    authorization: fc.oneof(
      fc.constantFrom<Text | Text[] | TamperedUserToken>(
        "Bearer",
        "Bearer ",
        "Bearer garbage",
        "Bearer null",
        "Bearer undefined",
        "Basic dXNlcjpwYXNz",
        `Bearer ${NONE_JWT}`,
        'Bearer {"$ne":null}',
        "bearer \xff\xfe",
        "Bearer a.b.c",
        "Token abc",
        ["Bearer x", "Bearer y"],
        new TamperedUserToken(),
      ),
      fc.integer({ min: 100, max: 12_000 }).map((count) => new Huge("a", count, "Bearer ")),
    ),
    apiKey: fc.oneof(
      fc.constantFrom<Text | Text[]>("", "sd_live_", '{"$ne":null}', "sd_live_\xff", "sd_live_%00", ["sd_live_a", "sd_live_b"]),
      fc.stringMatching(/^[0-9A-Za-z]{43}$/).map((random) => `sd_live_${random}`),
      fc.integer({ min: 100, max: 12_000 }).map((count) => new Huge("a", count, "sd_live_")),
    ),
  },
  { requiredKeys: [] },
);

