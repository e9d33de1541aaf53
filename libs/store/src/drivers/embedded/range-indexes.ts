import type { Schema } from "mongoose";
import type { BaseDocument, Filter, SortSpec } from "../../collection";

/** One document's place in a range index: its field's time, then its `_id` (the order MongoDB's `{field, _id}` index has). */
interface Entry {
  time: number;
  id: string;
}

/** A range of times, each end included or not; a missing end is open. */
interface TimeRange {
  low: number;
  lowIncluded: boolean;
  high: number;
  highIncluded: boolean;
}

/** The part of a filter a range index serves, and whether that is all the filter asks. */
export interface RangeMatch {
  field: string;
  /** Ids of the documents in the range, ascending by (time, `_id`). */
  ids: string[];
  /** True when the filter is only this range: every id matches, no document needs testing. */
  complete: boolean;
}

/**
 * Sorted (time, `_id`) lists for each Date field leading a declared index, so a time-range query
 * (`{ timestamp: { $gte, $lte } }`) reads only the documents in the range, and a sort on
 * `{ field, _id }` with a limit stops after the first matches. Like the lookup tables these only
 * pick candidates; mingo still evaluates the filter. When any document holds something other than
 * a valid Date in the field, the index stands aside and queries scan, so answers never change.
 */
export class RangeIndexes {
  readonly #byField = new Map<string, { entries: Entry[]; undated: Set<string> }>();

  private constructor(fields: Iterable<string>) {
    for (const field of fields) this.#byField.set(field, { entries: [], undated: new Set() });
  }

  static fromSchema(schema: Schema): RangeIndexes {
    const fields = new Set<string>();
    for (const [spec] of schema.indexes()) {
      const [leading] = Object.keys(spec);
      if (leading && !leading.includes(".") && (schema.path(leading) as unknown as { instance?: string } | undefined)?.instance === "Date") fields.add(leading);
    }
    return new RangeIndexes(fields);
  }

  get fields(): string[] {
    return [...this.#byField.keys()];
  }

  /** Registers documents loaded at open, sorting once instead of inserting one by one. */
  load(docs: Iterable<BaseDocument>): void {
    for (const [field, index] of this.#byField) {
      for (const doc of docs) {
        const time = timeOf(doc, field);
        if (time === null) index.undated.add(doc._id);
        else index.entries.push({ time, id: doc._id });
      }
      index.entries.sort(compareEntries);
    }
  }

  add(doc: BaseDocument): void {
    for (const [field, index] of this.#byField) {
      const time = timeOf(doc, field);
      if (time === null) index.undated.add(doc._id);
      else {
        const entry = { time, id: doc._id };
        index.entries.splice(insertionPoint(index.entries, entry), 0, entry);
      }
    }
  }

  remove(doc: BaseDocument): void {
    for (const [field, index] of this.#byField) {
      const time = timeOf(doc, field);
      if (time === null) index.undated.delete(doc._id);
      else {
        const at = insertionPoint(index.entries, { time, id: doc._id });
        if (index.entries[at]?.id === doc._id && index.entries[at]?.time === time) index.entries.splice(at, 1);
      }
    }
  }

  replace(previous: BaseDocument, next: BaseDocument): void {
    for (const field of this.#byField.keys()) {
      if (timeOf(previous, field) === timeOf(next, field)) continue;
      this.remove(previous);
      this.add(next);
      return;
    }
  }

  /** The documents a filter's time range on an indexed field allows, or null when no index serves the filter. */
  match(filter: Filter): RangeMatch | null {
    for (const [field, index] of this.#byField) {
      if (index.undated.size > 0) continue;
      const found = rangeCondition(filter, field);
      if (!found) continue;
      const [from, to] = bounds(index.entries, found.range);
      const ids = new Array<string>(Math.max(0, to - from));
      for (let i = from; i < to; i += 1) ids[i - from] = (index.entries[i] as Entry).id;
      return { field, ids, complete: found.complete };
    }
    return null;
  }

  /**
   * The documents in `sort` order when an index orders them exactly so: a sort `{ field: d, _id: d }`
   * on an indexed field (mingo, like MongoDB, compares Dates by time and string ids by code unit).
   * Only those in the filter's range on that field, when it has one. Null when no index serves the sort.
   */
  ordered(sort: SortSpec | undefined, filter: Filter): Iterable<string> | null {
    if (!sort) return null;
    const [field, second, ...rest] = Object.keys(sort);
    if (field === undefined || second !== "_id" || rest.length > 0 || sort[field] !== sort._id) return null;
    const index = this.#byField.get(field);
    if (!index || index.undated.size > 0) return null;
    const found = rangeCondition(filter, field);
    const [from, to] = found ? bounds(index.entries, found.range) : [0, index.entries.length];
    // Lazy: a caller usually stops after its limit, and reads run without yielding to writes.
    const entries = index.entries;
    const ascending = sort._id === 1;
    return {
      *[Symbol.iterator]() {
        if (ascending) for (let i = from; i < to; i += 1) yield (entries[i] as Entry).id;
        else for (let i = to - 1; i >= from; i -= 1) yield (entries[i] as Entry).id;
      },
    };
  }
}

function timeOf(doc: BaseDocument, field: string): number | null {
  const value = (doc as unknown as Record<string, unknown>)[field];
  if (!(value instanceof Date)) return null;
  const time = value.getTime();
  return Number.isNaN(time) ? null : time;
}

function compareEntries(a: Entry, b: Entry): number {
  if (a.time !== b.time) return a.time - b.time;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The first position whose entry is not before `entry`. */
function insertionPoint(entries: readonly Entry[], entry: Entry): number {
  let low = 0;
  let high = entries.length;
  // New documents are usually the newest: check the end first.
  const last = entries[high - 1];
  if (last === undefined || compareEntries(last, entry) < 0) return high;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareEntries(entries[middle] as Entry, entry) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The first position whose time is above `time` (when `after`) or at least `time`. */
function firstAtOrAfter(entries: readonly Entry[], time: number, after: boolean): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const at = (entries[middle] as Entry).time;
    if (at < time || (after && at === time)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function bounds(entries: readonly Entry[], range: TimeRange): [number, number] {
  const from = range.low === -Infinity ? 0 : firstAtOrAfter(entries, range.low, !range.lowIncluded);
  const to = range.high === Infinity ? entries.length : firstAtOrAfter(entries, range.high, range.highIncluded);
  return [from, Math.max(from, to)];
}

/**
 * The time range a filter imposes on `field` with Date bounds (`$gt`, `$gte`, `$lt`, `$lte`, `$eq`),
 * at the top level or inside a top-level `$and`; null when it imposes none. `complete` when the
 * filter asks nothing else.
 */
function rangeCondition(filter: Filter, field: string): { range: TimeRange; complete: boolean } | null {
  const range: TimeRange = { low: -Infinity, lowIncluded: true, high: Infinity, highIncluded: true };
  let found = false;
  let complete = true;
  const visit = (part: Filter) => {
    for (const [key, condition] of Object.entries(part)) {
      if (key === "$and" && Array.isArray(condition)) {
        for (const inner of condition) {
          if (isPlainObject(inner)) visit(inner);
          else complete = false;
        }
      } else if (key === field && isPlainObject(condition) && narrow(range, condition)) found = true;
      else complete = false;
    }
  };
  visit(filter);
  return found ? { range, complete } : null;
}

/** Narrows `range` by an operator object made only of Date comparisons; false (nothing changed) for anything else. */
function narrow(range: TimeRange, condition: Record<string, unknown>): boolean {
  const operators = Object.entries(condition);
  if (operators.length === 0) return false;
  for (const [operator, value] of operators) {
    if (!["$gt", "$gte", "$lt", "$lte", "$eq"].includes(operator) || !(value instanceof Date) || Number.isNaN(value.getTime())) return false;
  }
  for (const [operator, value] of operators) {
    const time = (value as Date).getTime();
    if (operator === "$gt" || operator === "$gte" || operator === "$eq") {
      const included = operator !== "$gt";
      if (time > range.low || (time === range.low && !included)) {
        range.low = time;
        range.lowIncluded = included;
      }
    }
    if (operator === "$lt" || operator === "$lte" || operator === "$eq") {
      const included = operator !== "$lt";
      if (time < range.high || (time === range.high && !included)) {
        range.high = time;
        range.highIncluded = included;
      }
    }
  }
  return true;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof RegExp);
}
