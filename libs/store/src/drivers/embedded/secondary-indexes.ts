import type { Schema } from "mongoose";
import type { BaseDocument, Filter } from "../../collection";

/** Schema types whose stored values are primitives that equality lookups can key on. */
const KEYABLE_TYPES = new Set(["String", "Number", "Boolean"]);

/** The bucket of documents whose field is null, missing, or an array holding null (or empty). */
const NULL_KEY = "null";

type Primitive = string | number | boolean | null;

/**
 * Value-to-ids tables for `_id` and each field leading a declared index, so a query need not scan
 * every document. They only pick candidates (in document order); mingo still evaluates the whole
 * filter, so answers equal a full scan's. Only String, Number and Boolean fields are indexed, since
 * the schema casts their values and so their keys are exact.
 */
export class SecondaryIndexes {
  /** field -> value key -> ids holding that value. */
  readonly #byField = new Map<string, Map<string, Set<string>>>();
  /** id -> position in the collection's document order (first insert), to return candidates in that order. */
  readonly #position = new Map<string, number>();
  #nextPosition = 0;

  private constructor(fields: Iterable<string>) {
    for (const field of fields) this.#byField.set(field, new Map());
  }

  static fromSchema(schema: Schema): SecondaryIndexes {
    const fields = new Set<string>();
    for (const [spec] of schema.indexes()) {
      const [leading] = Object.keys(spec);
      if (leading && leading !== "_id" && isKeyable(schema, leading)) fields.add(leading);
    }
    return new SecondaryIndexes(fields);
  }

  /** The fields with a lookup table (besides `_id`), for tests and diagnostics. */
  get fields(): string[] {
    return [...this.#byField.keys()];
  }

  /** Registers a new document, at the end of the collection's order. */
  add(doc: BaseDocument): void {
    this.#position.set(doc._id, this.#nextPosition++);
    this.#index(doc);
  }

  /** A stored document changed: it keeps its place in the order; only changed keys move. */
  replace(previous: BaseDocument, next: BaseDocument): void {
    for (const [field, table] of this.#byField) {
      const before = keysOf(fieldValue(previous, field));
      const after = keysOf(fieldValue(next, field));
      for (const key of before) if (!after.has(key)) unlink(table, key, previous._id);
      for (const key of after) if (!before.has(key)) link(table, key, next._id);
    }
  }

  remove(doc: BaseDocument): void {
    this.#position.delete(doc._id);
    for (const [field, table] of this.#byField) {
      for (const key of keysOf(fieldValue(doc, field))) unlink(table, key, doc._id);
    }
  }

  /**
   * The ids of the only documents that can match `filter`, in document order; null when no lookup
   * applies (the caller scans everything). Uses equality (`field: value`, `{ $eq }`, `{ $in }` of
   * primitives) on `_id` or an indexed field, at the top level or inside a top-level `$and`, and
   * takes the smallest set when several apply.
   */
  candidates(filter: Filter): string[] | null {
    let best: Set<string> | null = null;
    for (const [field, values] of equalityConditions(filter)) {
      const ids = this.#lookup(field, values);
      if (ids && (best === null || ids.size < best.size)) best = ids;
      if (best?.size === 0) break;
    }
    if (best === null) return null;
    const ids = [...best].filter((id) => this.#position.has(id));
    return ids.length > 1 ? ids.sort((a, b) => (this.#position.get(a) ?? 0) - (this.#position.get(b) ?? 0)) : ids;
  }

  /** `ids` in the collection's document order; ids of documents not stored are dropped. */
  inDocumentOrder(ids: readonly string[]): string[] {
    // Each position looked up once: lookups in a large table, not the sort, are the cost.
    const placed: { id: string; at: number }[] = [];
    for (const id of ids) {
      const at = this.#position.get(id);
      if (at !== undefined) placed.push({ id, at });
    }
    return placed.sort((a, b) => a.at - b.at).map(({ id }) => id);
  }

  #lookup(field: string, values: Primitive[]): Set<string> | null {
    if (field === "_id") return new Set(values.filter((value): value is string => typeof value === "string"));
    const table = this.#byField.get(field);
    if (!table) return null;
    if (values.length === 1) return table.get(keyOf(values[0] ?? null)) ?? new Set();
    const union = new Set<string>();
    for (const value of values) for (const id of table.get(keyOf(value)) ?? []) union.add(id);
    return union;
  }

  #index(doc: BaseDocument): void {
    for (const [field, table] of this.#byField) {
      for (const key of keysOf(fieldValue(doc, field))) link(table, key, doc._id);
    }
  }
}

function isKeyable(schema: Schema, field: string): boolean {
  if (field.includes(".")) return false;
  const type = schema.path(field) as unknown as { instance?: string; embeddedSchemaType?: { instance?: string } } | undefined;
  if (!type?.instance) return false;
  if (type.instance === "Array") return KEYABLE_TYPES.has(type.embeddedSchemaType?.instance ?? "");
  return KEYABLE_TYPES.has(type.instance);
}

function fieldValue(doc: BaseDocument, field: string): unknown {
  return (doc as unknown as Record<string, unknown>)[field];
}

/**
 * The keys a stored value is found under. A value the schema would not store (an object) gets
 * none: it can never equal a primitive, which is all a lookup asks for.
 */
function keysOf(value: unknown): Set<string> {
  const keys = new Set<string>();
  if (value === undefined || value === null) keys.add(NULL_KEY);
  else if (Array.isArray(value)) {
    // MongoDB and mingo match `{field: null}` against an array holding null; an empty array is
    // filed there too, which only makes the candidate set larger, never wrong.
    if (value.length === 0) keys.add(NULL_KEY);
    for (const item of value) if (isPrimitive(item) || item === undefined) keys.add(keyOf(item ?? null));
  } else if (isPrimitive(value)) keys.add(keyOf(value));
  return keys;
}

function keyOf(value: Primitive): string {
  return value === null ? NULL_KEY : `${typeof value}:${String(value)}`;
}

function isPrimitive(value: unknown): value is Primitive {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean";
}

function link(table: Map<string, Set<string>>, key: string, id: string): void {
  let ids = table.get(key);
  if (!ids) table.set(key, (ids = new Set()));
  ids.add(id);
}

function unlink(table: Map<string, Set<string>>, key: string, id: string): void {
  const ids = table.get(key);
  if (!ids) return;
  ids.delete(id);
  if (ids.size === 0) table.delete(key);
}

/**
 * The equality conditions a filter imposes on top-level fields (each a list of allowed values):
 * `field: primitive`, `field: { $eq: primitive, ... }`, `field: { $in: [primitives], ... }`,
 * also inside `$and`. Anything else (regexes, ranges, `$or`, subdocuments) is left to mingo.
 */
function equalityConditions(filter: Filter): [string, Primitive[]][] {
  const found: [string, Primitive[]][] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === "$and" && Array.isArray(condition)) {
      for (const part of condition) {
        if (typeof part === "object" && part !== null && !Array.isArray(part)) found.push(...equalityConditions(part as Filter));
      }
    } else if (!key.startsWith("$") && !key.includes(".")) {
      const values = allowedValues(condition);
      if (values) found.push([key, values]);
    }
  }
  return found;
}

function allowedValues(condition: unknown): Primitive[] | null {
  if (isPrimitive(condition)) return [condition];
  if (typeof condition !== "object" || condition === null || Array.isArray(condition) || condition instanceof Date || condition instanceof RegExp) return null;
  const operators = condition as Record<string, unknown>;
  if (!Object.keys(operators).every((op) => op.startsWith("$"))) return null;
  if ("$eq" in operators) return isPrimitive(operators.$eq) ? [operators.$eq] : null;
  if ("$in" in operators && Array.isArray(operators.$in) && operators.$in.every(isPrimitive)) return operators.$in as Primitive[];
  return null;
}
