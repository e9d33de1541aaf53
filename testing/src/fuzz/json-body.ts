import fc from "fast-check";
import { BatchLineInputSchema } from "@sd/contracts";
import type { DocumentedBody } from "@sd/contracts/endpoints";
import { badJsonValue, DANGEROUS_KEYS, POLLUTION_MARKER } from "./bad-values";
import { BODY_ENCODINGS, type BodyEncoding } from "../faults/heavy-bodies";
import { Deep, deleteAt, setAt, toJsonText, type JsonPath, type Text } from "./tokens";

/**
 * Bad JSON bodies built from an operation's documented example (a body its schema accepts), so a
 * refusal can come from deep inside the validation and not only from its first check.
 */

/** A request body as the suite sends it: a JSON value, raw text with any Content-Type, or JSON text sent compressed. */
export type JsonBodyRecipe =
  | { kind: "json"; value: unknown }
  | { kind: "raw"; contentType: string | null; text: Text }
  | { kind: "compressed"; encoding: BodyEncoding; text: string };

export type Mutation = { set: JsonPath; to: unknown } | { remove: JsonPath } | { addKey: string; at: JsonPath; to: unknown };

interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
}

export interface BodyField {
  path: JsonPath;
  type: string;
}

const typeOf = (node: JsonSchemaNode): string => (Array.isArray(node.type) ? node.type.join("|") : (node.type ?? "any"));

/** Every field the schema declares (optional ones too), with array elements and nested objects. */
/** A request body's zod schema (libs/contracts). */
type BodySchema = DocumentedBody["schema"];

export function bodyFields(schema: BodySchema): BodyField[] {
  const root = schema.toJSONSchema({ io: "input", unrepresentable: "any" }) as JsonSchemaNode;
  const fields: BodyField[] = [];
  const walk = (node: JsonSchemaNode, path: JsonPath) => {
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      const at = [...path, name];
      fields.push({ path: at, type: typeOf(child) });
      if (child.items) {
        fields.push({ path: [...at, 0], type: typeOf(child.items) }, { path: [...at, 1], type: typeOf(child.items) });
        if (child.items.properties) walk(child.items, [...at, 0]);
      }
      if (child.properties) walk(child, at);
    }
  };
  walk(root, []);
  return fields;
}

export function applyMutation(body: unknown, mutation: Mutation): unknown {
  if ("set" in mutation) return setAt(body, mutation.set, mutation.to);
  if ("remove" in mutation) return deleteAt(body, mutation.remove);
  return setAt(body, [...mutation.at, mutation.addKey], mutation.to);
}

/** Content types the JSON parser ignores, refuses or misreads. */
export const WRONG_CONTENT_TYPES = [
  null,
  "text/plain",
  "text/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=sdfuzz",
  "application/xml",
  "application/vnd.api+json",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "application/json;;",
  "application/json, text/plain",
  "APPLICATION/JSON",
] as const;

const INVALID_JSON_TEXTS = [
  "{",
  "}",
  '{"a":}',
  "{'a':1}",
  '{"a":1,}',
  "[1,2,]",
  "NaN",
  '{"a":NaN}',
  '{"a":undefined}',
  "\u0000",
  '{"a":"\\x41"}',
  '{"a":"\u0001"}',
  "\uFEFF{}",
  "[]",
  "[{}]",
  '"text"',
  "42",
  "null",
  "true",
  `{"__proto__":{"${POLLUTION_MARKER}":true}}`,
  `{"constructor":{"prototype":{"${POLLUTION_MARKER}":true}}}`,
] as const;

/** Raw bodies around `baseText` (the valid body's JSON): broken JSON, other types, other Content-Types, deep nesting, the valid body compressed. */
export function rawBodies(baseText: string): fc.Arbitrary<JsonBodyRecipe> {
  const json = "application/json";
  return fc.oneof(
    fc.nat({ max: Math.max(0, baseText.length - 1) }).map((cut): JsonBodyRecipe => ({ kind: "raw", contentType: json, text: baseText.slice(0, cut) })),
    fc.constantFrom(...INVALID_JSON_TEXTS).map((text): JsonBodyRecipe => ({ kind: "raw", contentType: json, text })),
    fc.constantFrom("garbage", "}", ",", "\u0000", "{}").map((tail): JsonBodyRecipe => ({ kind: "raw", contentType: json, text: baseText + tail })),
    fc.string({ unit: "binary", maxLength: 60 }).map((text): JsonBodyRecipe => ({ kind: "raw", contentType: json, text })),
    fc.constantFrom(...WRONG_CONTENT_TYPES).map((contentType): JsonBodyRecipe => ({ kind: "raw", contentType, text: baseText })),
    fc.constantFrom<"array" | "object">("array", "object").map((kind): JsonBodyRecipe => ({ kind: "raw", contentType: json, text: new Deep(10_000, kind).text() })),
    fc.constantFrom(...BODY_ENCODINGS).map((encoding): JsonBodyRecipe => ({ kind: "compressed", encoding, text: baseText })),
  );
}

/** A body mutated 1 to 3 times (wrong types, operators, pollution keys, huge or deep values, removed fields), or a raw one. */
export function badJsonBodies(schema: BodySchema, base: unknown): fc.Arbitrary<JsonBodyRecipe> {
  const fields = bodyFields(schema);
  const objectPaths: JsonPath[] = [[], ...fields.filter((f) => f.type === "object").map((f) => f.path)];
  const paths: JsonPath[] = [[], ...fields.map((f) => f.path)];
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { weight: 6, arbitrary: fc.record({ set: fc.constantFrom(...paths), to: badJsonValue }) },
    { weight: 1, arbitrary: fc.record({ remove: fc.constantFrom(...fields.map((f) => f.path)) }) },
    { weight: 2, arbitrary: fc.record({ addKey: fc.constantFrom(...DANGEROUS_KEYS), at: fc.constantFrom(...objectPaths), to: badJsonValue }) },
  );
  const mutated = fc
    .array(mutation, { minLength: 1, maxLength: 3 })
    .map((mutations): JsonBodyRecipe => ({ kind: "json", value: mutations.reduce(applyMutation, base) }));
  return fc.oneof({ weight: 5, arbitrary: mutated }, { weight: 2, arbitrary: rawBodies(toJsonText(base)) });
}

const OPERATORS: readonly unknown[] = [{ $ne: null }, { $gt: "" }, { $where: "sleep(100) || true" }];

/** `{"$ne": null}`, `{"$gt": ""}` and `{"$where": ...}` in every string field of the schema, one request each. */
export function operatorInEveryStringField(schema: BodySchema, base: unknown): JsonBodyRecipe[] {
  return bodyFields(schema)
    .filter((field) => field.type === "string")
    .flatMap((field) => OPERATORS.map((operator): JsonBodyRecipe => ({ kind: "json", value: setAt(base, field.path, operator) })));
}

/** The Content-Type of a batch file (POST /v1/batches). */
export const JSONL_CONTENT_TYPE = "application/jsonl";

/** `baseText`'s lines with the first replaced by a recipe's JSON value (a JSON recipe; others are kept as they are). */
function firstLineReplaced(baseText: string, recipe: JsonBodyRecipe): JsonBodyRecipe {
  if (recipe.kind !== "json") return recipe;
  const rest = baseText.split("\n").slice(1).join("\n");
  return { kind: "raw", contentType: JSONL_CONTENT_TYPE, text: `${toJsonText(recipe.value)}\n${rest}` };
}

/**
 * Batch files (JSONL) a batch's validation refuses: the first line made bad as a JSON body is
 * (its fields wrong, removed, huge, operators), broken lines, no line at all, every custom_id
 * twice, the file under other Content-Types, or compressed.
 */
export function badJsonlBodies(baseText: string): fc.Arbitrary<JsonBodyRecipe> {
  const [first = "{}"] = baseText.split("\n");
  const line = JSON.parse(first) as Record<string, unknown>;
  return fc.oneof(
    { weight: 4, arbitrary: badJsonBodies(BatchLineInputSchema, line).map((recipe) => firstLineReplaced(baseText, recipe)) },
    { weight: 1, arbitrary: fc.constantFrom("", "\n \n", "{", "[1]", "null", `${baseText}${baseText}`, `${first.slice(0, -1)}\n`).map((text): JsonBodyRecipe => ({ kind: "raw", contentType: JSONL_CONTENT_TYPE, text })) },
    { weight: 1, arbitrary: fc.constantFrom(...WRONG_CONTENT_TYPES).map((contentType): JsonBodyRecipe => ({ kind: "raw", contentType, text: baseText })) },
    { weight: 1, arbitrary: fc.constantFrom(...BODY_ENCODINGS).map((encoding): JsonBodyRecipe => ({ kind: "compressed", encoding, text: baseText })) },
  );
}

/** `{"$ne": null}` and the other operators in every string field of a batch file's first line. */
export function jsonlOperatorVariants(baseText: string): JsonBodyRecipe[] {
  const [first = "{}"] = baseText.split("\n");
  return operatorInEveryStringField(BatchLineInputSchema, JSON.parse(first)).map((recipe) => firstLineReplaced(baseText, recipe));
}
