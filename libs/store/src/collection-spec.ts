import type { Schema } from "mongoose";
import type { BaseDocument } from "./collection";

/** A named collection and the mongoose schema (fields, defaults, validation, indexes) of its documents. */
export interface CollectionSpec<TDoc extends BaseDocument> {
  readonly name: string;
  readonly schema: Schema;
  /**
   * String fields the embedded store keeps in files of their own instead of in memory and in its
   * journal (large values, e.g. an image's data); never queried. MongoDB stores them as any field.
   */
  readonly storedApart: readonly string[];
  /** Type-only marker tying the spec to its document type; never set at runtime. */
  readonly documentType?: TDoc;
}

export function defineCollection<TDoc extends BaseDocument>(
  name: string,
  schema: Schema,
  options: { storedApart?: readonly (keyof TDoc & string)[] } = {},
): CollectionSpec<TDoc> {
  return { name, schema, storedApart: options.storedApart ?? [] };
}
