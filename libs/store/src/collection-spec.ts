import type { Schema } from "mongoose";
import type { BaseDocument } from "./collection";

/** A named collection and the mongoose schema (fields, defaults, validation, indexes) of its documents. */
export interface CollectionSpec<TDoc extends BaseDocument> {
  readonly name: string;
  readonly schema: Schema;
  /** Type-only marker tying the spec to its document type; never set at runtime. */
  readonly documentType?: TDoc;
}

export function defineCollection<TDoc extends BaseDocument>(name: string, schema: Schema): CollectionSpec<TDoc> {
  return { name, schema };
}
