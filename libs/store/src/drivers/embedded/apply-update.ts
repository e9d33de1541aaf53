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

/** The operators `applyPlainUpdate` applies itself. */
const PLAIN_OPERATORS = new Set(["$set", "$setOnInsert", "$inc", "$max"]);

/**
 * Applies an update of only `$set`, `$setOnInsert`, `$inc` and `$max` on paths through plain
 * objects to a new version of `current` (leaving `current` as it was), as mingo (and MongoDB) would; null when the update or the
 * document is anything else (an array or a non-object on a path, paths that overlap, a `$inc` of
 * a non-number, a `$max` between different types), which the caller leaves to `applyUpdate`.
 * mingo builds its whole operator context for every update, which costs more than a small
 * document's update itself: the rollup counters are updated with these operators many times a second.
 */
export function applyPlainUpdate<TDoc extends BaseDocument>(current: TDoc, update: Update, isInsert: boolean): TDoc | null {
  if (Array.isArray(update)) return null;
  const changes: [string, string[], unknown][] = [];
  for (const [operator, fields] of Object.entries(update)) {
    if (!PLAIN_OPERATORS.has(operator) || !isPlainObject(fields)) return null;
    if (operator === "$setOnInsert" && !isInsert) continue;
    for (const [path, value] of Object.entries(fields)) {
      const parts = path.split(".");
      if (parts.some((part) => part === "" || part.startsWith("$") || /^\d+$/.test(part)) || parts[0] === "_id") return null;
      changes.push([operator, parts, value]);
    }
  }
  const paths = changes.map(([, parts]) => parts.join("."));
  const sorted = [...paths].sort();
  for (let i = 1; i < sorted.length; i += 1) {
    const [before, after] = [sorted[i - 1] as string, sorted[i] as string];
    if (after === before || after.startsWith(`${before}.`)) return null;
  }
  // Copied along the changed paths only; the rest is shared with `current`, which stored documents
  // allow, since the store never changes a document in place (every change makes a new version).
  const doc: Record<string, unknown> = { ...(current as unknown as Record<string, unknown>) };
  const copied = new Set<Record<string, unknown>>([doc]);
  for (const [operator, parts, value] of changes) {
    let parent = doc;
    for (const part of parts.slice(0, -1)) {
      const next = Object.hasOwn(parent, part) ? parent[part] : undefined;
      if (next === undefined) copied.add((parent = parent[part] = {}));
      else if (!isPlainObject(next)) return null;
      else if (copied.has(next)) parent = next;
      else copied.add((parent = parent[part] = { ...next }));
    }
    const leaf = parts[parts.length - 1] as string;
    const existing = Object.hasOwn(parent, leaf) ? parent[leaf] : undefined;
    if (operator === "$inc") {
      if (typeof value !== "number" || (existing !== undefined && typeof existing !== "number")) return null;
      parent[leaf] = (existing ?? 0) + value;
    } else if (operator === "$max") {
      if (existing === undefined) parent[leaf] = structuredClone(value);
      else if ((typeof value === "number" && typeof existing === "number") || (typeof value === "string" && typeof existing === "string")) {
        if (value > existing) parent[leaf] = value;
      } else return null;
    } else parent[leaf] = structuredClone(value);
  }
  return doc as unknown as TDoc;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype;
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
