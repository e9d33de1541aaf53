import { Query } from "mingo";
import type { Schema } from "mongoose";
import type { BaseDocument } from "../../collection";
import { DuplicateKeyError } from "../../errors";
import { encodeEjson } from "./ejson";
import { MINGO_OPTIONS } from "./mingo-options";

interface UniqueIndex {
  name: string;
  fields: string[];
  sparse: boolean;
  partialFilter: Query<BaseDocument> | null;
  /** Encoded key -> `_id` of the document holding it. */
  owners: Map<string, string>;
}

interface IndexKey {
  encoded: string;
  values: unknown[];
}

/**
 * MongoDB's unique indexes, enforced in process: `_id` plus every index the schema declares
 * with `unique: true` (`schema.indexes()` includes both `schema.index(..., { unique })` and
 * path-level `unique: true`). Honours `sparse` and `partialFilterExpression`; array values
 * index each element, like a multikey index; a missing field counts as null.
 */
export class UniqueIndexes {
  private constructor(
    private readonly collection: string,
    private readonly indexes: UniqueIndex[],
  ) {}

  static fromSchema(collection: string, schema: Schema): UniqueIndexes {
    const indexes: UniqueIndex[] = [createIndex("_id_", ["_id"], false, null)];
    for (const [spec, options] of schema.indexes()) {
      if (!options?.unique) continue;
      const fields = Object.keys(spec);
      const name = typeof options.name === "string" ? options.name : Object.entries(spec).map(([field, dir]) => `${field}_${String(dir)}`).join("_");
      const partial = options.partialFilterExpression as Record<string, unknown> | undefined;
      indexes.push(createIndex(name, fields, options.sparse === true, partial ? new Query<BaseDocument>(partial, MINGO_OPTIONS) : null));
    }
    return new UniqueIndexes(collection, indexes);
  }

  /**
   * Throws a `DuplicateKeyError` (code 11000) if `doc` would take a key already held, other than
   * by the document it replaces (`replacing`: the `_id` of the document being updated).
   */
  assertAvailable(doc: BaseDocument, replacing?: string): void {
    for (const index of this.indexes) {
      for (const key of indexKeys(index, doc)) {
        const owner = index.owners.get(key.encoded);
        if (owner !== undefined && owner !== replacing) {
          const keyValue = Object.fromEntries(index.fields.map((field, i) => [field, key.values[i]]));
          throw new DuplicateKeyError(this.collection, index.name, keyValue);
        }
      }
    }
  }

  add(doc: BaseDocument): void {
    for (const index of this.indexes) for (const key of indexKeys(index, doc)) index.owners.set(key.encoded, doc._id);
  }

  remove(doc: BaseDocument): void {
    for (const index of this.indexes) {
      for (const key of indexKeys(index, doc)) if (index.owners.get(key.encoded) === doc._id) index.owners.delete(key.encoded);
    }
  }
}

function createIndex(name: string, fields: string[], sparse: boolean, partialFilter: Query<BaseDocument> | null): UniqueIndex {
  return { name, fields, sparse, partialFilter, owners: new Map() };
}

function indexKeys(index: UniqueIndex, doc: BaseDocument): IndexKey[] {
  if (index.partialFilter && !index.partialFilter.test(doc)) return [];
  const perField = index.fields.map((field) => valuesAtPath(doc, field.split(".")));
  if (index.sparse && perField.every((values) => values.every((value) => value === undefined))) return [];
  const keys = new Map<string, IndexKey>();
  for (const values of cartesian(perField)) {
    const normalised = values.map((value) => (value === undefined ? null : value));
    // Strings, booleans and null encode the same in JSON and Extended JSON; JSON.stringify is much
    // cheaper, and every document's _id is keyed this way at start-up.
    const encoded = normalised.every(isJsonScalar) ? JSON.stringify(normalised) : encodeEjson(normalised);
    keys.set(encoded, { encoded, values: normalised });
  }
  return [...keys.values()];
}

/** Values a dotted path reaches; arrays fan out to their elements; `undefined` when missing. */
function valuesAtPath(value: unknown, segments: string[]): unknown[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [undefined];
    return segments.length === 0 ? value : value.flatMap((item) => valuesAtPath(item, segments));
  }
  if (segments.length === 0) return [value];
  if (typeof value !== "object" || value === null) return [undefined];
  const [head, ...rest] = segments as [string, ...string[]];
  return valuesAtPath((value as Record<string, unknown>)[head], rest);
}

function cartesian(lists: unknown[][]): unknown[][] {
  return lists.reduce<unknown[][]>((combos, list) => combos.flatMap((combo) => list.map((value) => [...combo, value])), [[]]);
}

function isJsonScalar(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "boolean";
}
