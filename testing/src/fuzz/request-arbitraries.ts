import fc from "fast-check";
import type { DocumentedOperation } from "@sd/contracts/endpoints";
import { unicodeString } from "./bad-values";
import type { BodyRecipe, Caller, RequestRecipe } from "./recipe";
import { rawBodies } from "./json-body";
import { callerRefusal } from "./refusal";
import { badCredentials, badHeaderValue, badPathValue, badQueryPairs, edgeQueryPairs, junkQueryPairs, noiseHeaders, percentEncode, type QueryPair } from "./request-parts";
import type { Text } from "./tokens";

/** How an operation's requests are generated: refused ones, `$`-operator examples, and junk for reads. */

/** The parts of a request that can be made bad. */
export type Part = "params" | "query" | "headers" | "body";

/** An operation's valid body (its documented example), bad ones, and one with an operator in each string field. */
export interface Bodies {
  valid: BodyRecipe | undefined;
  bad: fc.Arbitrary<BodyRecipe | undefined>;
  operatorVariants: BodyRecipe[];
}

const OPERATOR_QUERY_SUFFIXES = ["[$ne]", "[$gt]", "[$where]"] as const;
const OPERATOR_PATH_VALUE = "%7B%22%24ne%22%3Anull%7D";

/** The caller for whom validation runs furthest (the key's owner, the admin, the user). */
function deepestCaller(op: DocumentedOperation): Caller {
  if (op.access === "api-key") return "apiKey";
  if (op.tag === "admin") return "admin";
  return op.access === "public" ? "anonymous" : "user";
}

/** Valid values of the declared headers: their documented examples. */
function validHeaders(op: DocumentedOperation): Record<string, Text> {
  if (!op.headers) return {};
  const schema = op.headers.toJSONSchema({ io: "input", unrepresentable: "any" }) as { properties?: Record<string, { examples?: unknown[]; example?: unknown }> };
  return Object.fromEntries(
    Object.entries(schema.properties ?? {}).flatMap(([name, property]) => {
      const example = property.examples?.[0] ?? property.example;
      return typeof example === "string" ? [[name, example]] : [];
    }),
  );
}

export function queryNames(op: DocumentedOperation): string[] {
  return op.query ? Object.keys(op.query.shape) : [];
}

/**
 * Requests of `caller` with some of `parts` made bad (at least one unless the caller is refused
 * anyway) and the others valid (the fixtures' ids, the documented body), so a refusal can come
 * from any check on the way, not only the first.
 */
export function refusedFor(op: DocumentedOperation, caller: Caller, parts: Part[], bodies: Bodies, idNames: string[]): fc.Arbitrary<RequestRecipe> {
  const callerRefuses = callerRefusal(op, caller) !== null;
  const headerNames = op.headers ? Object.keys(op.headers.shape) : [];
  return fc.subarray(parts, { minLength: callerRefuses ? 0 : 1 }).chain((bad) =>
    fc.record({
      caller: fc.constant(caller),
      credentials: caller === "badCredential" ? badCredentials : fc.constant(undefined),
      badParams: bad.includes("params")
        ? fc.subarray(idNames, { minLength: 1 }).chain((names) => fc.tuple(...names.map(() => badPathValue)).map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]!]))))
        : fc.constant({}),
      query: bad.includes("query") ? fc.tuple(badQueryPairs(queryNames(op)), junkQueryPairs).map(([a, b]) => [...a, ...b]) : junkQueryPairs,
      headers: fc
        .tuple(noiseHeaders, bad.includes("headers") ? fc.tuple(fc.constantFrom(...headerNames), badHeaderValue).map(([n, v]) => ({ [n]: v })) : fc.constantFrom({}, validHeaders(op)))
        .map(([noise, declared]): Record<string, Text | Text[]> => ({ ...noise, ...declared })),
      body: bad.includes("body") || bodies.valid === undefined ? bodies.bad : fc.constant(bodies.valid),
    }),
  );
}

/** One request per string field, query parameter and path parameter with a `$` operator in it, as the deepest caller. */
export function operatorExamples(op: DocumentedOperation, bodies: Bodies, idNames: string[]): RequestRecipe[] {
  const base: RequestRecipe = { caller: deepestCaller(op), badParams: {}, query: [], headers: {}, body: bodies.valid };
  const inQuery = queryNames(op).flatMap((name): QueryPair[][] => [
    ...OPERATOR_QUERY_SUFFIXES.map((suffix) => [{ name: `${name}${suffix}`, value: "x", raw: true }]),
    [{ name, value: '{"$ne":null}' }],
  ]);
  return [
    ...bodies.operatorVariants.map((body) => ({ ...base, body })),
    ...inQuery.map((query) => ({ ...base, query })),
    ...idNames.map((name) => ({ ...base, badParams: { [name]: OPERATOR_PATH_VALUE } })),
  ];
}

/**
 * GET calls that may well be accepted: junk parameters, edge values of the declared ones (regex
 * syntax, odd dates, unicode), odd ids, and bodies a GET should not have. Reads write nothing, so
 * these need not be refused; they must still never fail or leak.
 */
export function junkFor(op: DocumentedOperation, callers: Caller[], idNames: string[]): fc.Arbitrary<RequestRecipe> {
  const declared = queryNames(op);
  return fc.constantFrom(...callers).chain((caller) =>
    fc.record({
      caller: fc.constant(caller),
      credentials: caller === "badCredential" ? badCredentials : fc.constant(undefined),
      badParams: idNames.length > 0 ? fc.option(fc.record(Object.fromEntries(idNames.map((name) => [name, unicodeString.map(percentEncode)]))), { nil: {} }) : fc.constant({}),
      query: fc
        .tuple(junkQueryPairs, declared.length > 0 ? edgeQueryPairs(declared) : fc.constant([]), fc.option(badQueryPairs(["limit", "period", "id"]), { nil: [] }))
        .map((groups) => groups.flat()),
      headers: noiseHeaders,
      body: fc.option(rawBodies("{}"), { nil: undefined }),
    }),
  );
}

