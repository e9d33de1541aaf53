import { update as applyModifier, updateOne as applyToFirst } from "mingo";
import type { AnyObject } from "mingo/types";
import type { Modifier, PipelineStage } from "mingo/updater";
import type { BaseDocument, Filter, Update } from "../../collection";
import { InvalidUpdateError } from "../../errors";
import { MINGO_OPTIONS } from "./mingo-options";

export interface AppliedUpdate<TDoc> {
  doc: TDoc;
  changed: boolean;
}

/**
 * Applies a MongoDB update (operators or pipeline) to a copy of `current` with mingo.
 * `$setOnInsert` (which mingo lacks) applies only when `isInsert`, as part of `$set`.
 */
export function applyUpdate<TDoc extends BaseDocument>(current: TDoc, update: Update, isInsert: boolean): AppliedUpdate<TDoc> {
  const doc = structuredClone(current);
  let changed: boolean;
  if (Array.isArray(update)) {
    // mingo types documents as AnyObject; ours are interfaces without an index signature.
    const docs = [doc as unknown as AnyObject];
    changed = applyToFirst(docs, {}, update as PipelineStage[], { cloneMode: "deep" }, MINGO_OPTIONS).modifiedCount > 0;
    return checked(current, docs[0] as TDoc, changed);
  }
  const modifier = withoutSetOnInsert(update, isInsert);
  changed = Object.keys(modifier).length > 0 && applyModifier(doc as unknown as AnyObject, modifier as Modifier<AnyObject>, undefined, undefined, { cloneMode: "deep", queryOptions: MINGO_OPTIONS }).length > 0;
  return checked(current, doc, changed);
}

function withoutSetOnInsert(update: Record<string, unknown>, isInsert: boolean): Record<string, unknown> {
  const { $setOnInsert, ...rest } = update;
  if (!isInsert || $setOnInsert === undefined) return rest;
  return { ...rest, $set: { ...(rest.$set as Record<string, unknown> | undefined), ...($setOnInsert as Record<string, unknown>) } };
}

function checked<TDoc extends BaseDocument>(current: TDoc, next: TDoc, changed: boolean): AppliedUpdate<TDoc> {
  if (next._id !== current._id) {
    throw new InvalidUpdateError("Performing an update on the path '_id' would modify the immutable field '_id'");
  }
  return { doc: next, changed };
}

/**
 * The document an upsert starts from, as MongoDB builds it: the filter's equality conditions
 * (`field: value`, `field: { $eq: value }`, and those inside `$and`).
 */
export function upsertSeed(filter: Filter): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  collectEqualities(filter, set);
  // mingo (like MongoDB) refuses to $set _id, so it is placed directly.
  const { _id, ...fields } = set;
  const seed: Record<string, unknown> = _id === undefined ? {} : { _id };
  if (Object.keys(fields).length > 0) applyModifier(seed, { $set: fields }, undefined, undefined, { cloneMode: "deep", queryOptions: MINGO_OPTIONS });
  return seed;
}

function collectEqualities(filter: Filter, into: Record<string, unknown>): void {
  for (const [key, condition] of Object.entries(filter)) {
    if (key === "$and" && Array.isArray(condition)) {
      for (const part of condition) collectEqualities(part as Filter, into);
    } else if (!key.startsWith("$")) {
      if (condition instanceof RegExp) continue;
      if (!isOperatorObject(condition)) into[key] = condition;
      else if ("$eq" in condition) into[key] = condition.$eq;
    }
  }
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof Date || value instanceof RegExp) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => key.startsWith("$"));
}
