import type { Filter, Pipeline } from "../../collection";

/**
 * A fast path for the embedded driver's `aggregate`: pipelines in a narrow subset of stages and
 * operators are compiled into plain closures, far faster than mingo's interpreter. Answers must be
 * exactly mingo's (compiled-pipeline.test.ts checks each), so:
 * - `compilePipeline` returns null outside the subset, and the caller runs mingo;
 * - a value whose semantics differ between engines (arrays in `$match`, missing fields, mixed types,
 *   non-ASCII orderings...) throws `NotCompilable` mid-run, and the caller reruns with mingo;
 * - `$sort` ties and `$group` order keep input order, as mingo's do.
 */

export class NotCompilable extends Error {
  constructor(why: string) {
    super(`Not handled by the compiled pipeline: ${why}`);
    this.name = "NotCompilable";
  }
}

type Doc = Record<string, unknown>;
type Run = (docs: Doc[]) => Doc[];
type Expr = (doc: Doc) => unknown;

/** Where documents go, one at a time; `end` once after the last one. */
interface Sink {
  push(doc: Doc): void;
  end(): void;
}
/** A compiled stage: builds its per-run state in front of the downstream sink. */
type Stage = (next: Sink) => Sink;
/** A compiled pipeline: the head sink of a fresh run feeding `next`. */
type Chain = (next: Sink) => Sink;

/** A Date literal of the pipeline, replaced by a parameter so that the compiled shape can be reused. */
class DateParam {
  constructor(readonly index: number) {}
}

/** The parameter values of the current run of one cached compiled pipeline (runs are synchronous). */
interface Params {
  dates: Date[];
}

/** The `Params` the pipeline being compiled reads its Date literals from. */
let compiling: Params | null = null;

interface Compiled {
  params: Params;
  chain: Chain;
}

const CACHE_LIMIT = 256;
const cache = new Map<string, Compiled | null>();

/** The compiled pipeline, or null when it uses anything outside the subset (run mingo then). */
export function compilePipeline(pipeline: Pipeline): Run | null {
  const dates: Date[] = [];
  const parts: string[] = [];
  const template = shapeOf(pipeline, dates, parts);
  let compiled: Compiled | null | undefined;
  if (template === NOT_CACHEABLE) {
    compiled = compileEntry(pipeline);
  } else {
    const key = parts.join("");
    compiled = cache.get(key);
    if (compiled === undefined) {
      compiled = compileEntry(template as Pipeline);
      if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
      cache.set(key, compiled);
    }
  }
  if (compiled === null) return null;
  const { params, chain } = compiled;
  return (docs) => {
    params.dates = dates;
    const out: Doc[] = [];
    const head = chain({ push: (doc) => void out.push(doc), end: () => undefined });
    for (let i = 0; i < docs.length; i += 1) head.push(docs[i] as Doc);
    head.end();
    return out;
  };
}

/** How many distinct pipeline shapes are cached (for tests). */
export function compiledShapeCount(): number {
  return cache.size;
}

function compileEntry(pipeline: Pipeline): Compiled | null {
  const params: Params = { dates: [] };
  compiling = params;
  try {
    return { params, chain: compileStages(pipeline) };
  } catch (error) {
    if (error instanceof NotCompilable) return null;
    throw error;
  } finally {
    compiling = null;
  }
}

const NOT_CACHEABLE = Symbol("not cacheable");

/**
 * The pipeline with each Date replaced by a `DateParam` (its value appended to `dates`), and its
 * shape written to `parts`: every other value is part of the shape. Anything but JSON-like values
 * and Dates makes it NOT_CACHEABLE (compiled on each call, as it is).
 */
function shapeOf(value: unknown, dates: Date[], parts: string[]): unknown {
  if (value === null) return parts.push("null"), value;
  switch (typeof value) {
    case "string":
      parts.push(JSON.stringify(value));
      return value;
    case "boolean":
      parts.push(value ? "true" : "false");
      return value;
    case "number":
      parts.push(Object.is(value, -0) ? "-0" : String(value));
      return value;
    case "object":
      break;
    default:
      return NOT_CACHEABLE;
  }
  if (value instanceof Date) {
    parts.push("D");
    dates.push(value);
    return new DateParam(dates.length - 1);
  }
  if (Array.isArray(value)) {
    parts.push("[");
    const out: unknown[] = [];
    for (const item of value) {
      const shaped = shapeOf(item, dates, parts);
      if (shaped === NOT_CACHEABLE) return NOT_CACHEABLE;
      out.push(shaped);
      parts.push(",");
    }
    parts.push("]");
    return out;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return NOT_CACHEABLE;
  parts.push("{");
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    parts.push(JSON.stringify(key), ":");
    const shaped = shapeOf(item, dates, parts);
    if (shaped === NOT_CACHEABLE) return NOT_CACHEABLE;
    out[key] = shaped;
    parts.push(",");
  }
  parts.push("}");
  return out;
}

/** A literal's value at run time: a DateParam reads the current run's Date. */
function literal(value: unknown): () => unknown {
  if (value instanceof DateParam) {
    const params = compiling;
    if (!params) throw new Error("A Date parameter outside a compilation");
    const index = value.index;
    return () => params.dates[index];
  }
  return () => value;
}

function compileStages(pipeline: Pipeline): Chain {
  const stages: Stage[] = [];
  for (let i = 0; i < pipeline.length; i += 1) {
    const stage = pipeline[i] as Record<string, unknown>;
    const following = pipeline[i + 1];
    // $sort then $limit: a top-k selection instead of a full sort.
    if (stageName(stage) === "$sort" && following && stageName(following) === "$limit") {
      stages.push(compileSort(asObject(stage.$sort), asCount(following.$limit)));
      i += 1;
    } else {
      stages.push(compileStage(stage));
    }
  }
  return (next) => {
    let sink = next;
    for (let i = stages.length - 1; i >= 0; i -= 1) sink = (stages[i] as Stage)(sink);
    return sink;
  };
}

function stageName(stage: Record<string, unknown>): string | undefined {
  const keys = Object.keys(stage);
  return keys.length === 1 ? keys[0] : undefined;
}

function compileStage(stage: Record<string, unknown>): Stage {
  const name = stageName(stage);
  if (name === undefined) throw new NotCompilable("a stage with several keys");
  const spec = stage[name];
  switch (name) {
    case "$match": {
      const test = compileFilter(asObject(spec));
      return (next) => ({
        push: (doc) => {
          if (test(doc)) next.push(doc);
        },
        end: () => next.end(),
      });
    }
    case "$project":
      return compileProject(asObject(spec));
    case "$group":
      return compileGroup(asObject(spec));
    case "$sort":
      return compileSort(asObject(spec), Infinity);
    case "$limit": {
      const n = asCount(spec);
      return (next) => {
        let seen = 0;
        return {
          push: (doc) => {
            if (seen < n) {
              seen += 1;
              next.push(doc);
            }
          },
          end: () => next.end(),
        };
      };
    }
    case "$skip": {
      const n = asCount(spec);
      return (next) => {
        let seen = 0;
        return {
          push: (doc) => {
            if (seen < n) seen += 1;
            else next.push(doc);
          },
          end: () => next.end(),
        };
      };
    }
    case "$facet": {
      const facets = Object.entries(asObject(spec)).map(([facet, sub]) => {
        if (!Array.isArray(sub)) throw new NotCompilable("a $facet that is not a pipeline");
        return [facet, compileStages(sub as Pipeline)] as const;
      });
      return (next) => {
        // One pass: each input document is pushed into every facet's own pipeline.
        const outputs = facets.map(() => [] as Doc[]);
        const heads = facets.map(([, chain], i) => {
          const out = outputs[i] as Doc[];
          return chain({ push: (doc) => void out.push(doc), end: () => undefined });
        });
        return {
          push: (doc) => {
            for (let i = 0; i < heads.length; i += 1) (heads[i] as Sink).push(doc);
          },
          end: () => {
            const result: Doc = {};
            facets.forEach(([facet], i) => {
              (heads[i] as Sink).end();
              result[facet] = outputs[i];
            });
            next.push(result);
            next.end();
          },
        };
      };
    }
    default:
      throw new NotCompilable(`the stage ${name}`);
  }
}

// ---------------------------------------------------------------- values

const ASCII = /^[\x20-\x7e]*$/;
const DAY_MS = 86_400_000;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date) && !(value instanceof RegExp) && !(value instanceof DateParam);
}

function asObject(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw new NotCompilable("a stage argument that is not an object");
  return value;
}

function asCount(value: unknown): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) throw new NotCompilable("a count that is not a whole number");
  return value;
}

/** Ordered comparison of two values of one comparable type (number, ASCII string, Date); else not compilable. */
function compareSameType(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a) || Number.isNaN(b)) throw new NotCompilable("NaN in a comparison");
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === "string" && typeof b === "string") {
    // MongoDB orders strings by UTF-8 bytes, JavaScript by UTF-16 units: they agree on ASCII.
    if (!ASCII.test(a) || !ASCII.test(b)) throw new NotCompilable("a non-ASCII string in an ordering");
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (a instanceof Date && b instanceof Date) return Math.sign(a.getTime() - b.getTime());
  throw new NotCompilable("an ordering of mixed or unsupported types");
}

/** Equality of two scalar values (null, boolean, number, string, Date); anything else is not compilable. */
function scalarEquals(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) throw new NotCompilable("a missing field in an expression comparison");
  if (a === null || b === null) return a === b;
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  if (typeof a === "object" || typeof b === "object") throw new NotCompilable("an object or array in a comparison");
  if (typeof a === "number" && Number.isNaN(a)) throw new NotCompilable("NaN in a comparison");
  return a === b;
}

function isScalarLiteral(value: unknown): boolean {
  return value === null || typeof value === "string" || typeof value === "number" || typeof value === "boolean" || value instanceof Date || value instanceof DateParam;
}

// ---------------------------------------------------------------- $match

function compileFilter(filter: Filter): (doc: Doc) => boolean {
  const tests: ((doc: Doc) => boolean)[] = [];
  for (const [key, condition] of Object.entries(filter)) {
    if (key === "$and") {
      if (!Array.isArray(condition) || condition.length === 0) throw new NotCompilable("a malformed $and");
      tests.push(...condition.map((part) => compileFilter(asObject(part))));
    } else if (key.startsWith("$") || key.includes(".")) {
      throw new NotCompilable(`the filter key ${key}`);
    } else {
      tests.push(compileCondition(key, condition));
    }
  }
  if (tests.length === 1) return tests[0] as (doc: Doc) => boolean;
  return (doc) => {
    for (const test of tests) if (!test(doc)) return false;
    return true;
  };
}

const RANGE: Record<string, (order: number) => boolean> = {
  $gt: (order) => order > 0,
  $gte: (order) => order >= 0,
  $lt: (order) => order < 0,
  $lte: (order) => order <= 0,
};

function compileCondition(field: string, condition: unknown): (doc: Doc) => boolean {
  const read = (doc: Doc): unknown => {
    const value = doc[field];
    // Arrays match element-wise and subdocuments by whole-document equality: left to mingo.
    if (typeof value === "object" && value !== null && !(value instanceof Date) && (Array.isArray(value) || isPlainObject(value))) throw new NotCompilable(`a $match on the non-scalar field ${field}`);
    return value;
  };
  const equals = (operand: unknown) => {
    const get = literal(operand);
    return (doc: Doc) => {
      const value = read(doc);
      // A null operand also matches a missing field, in MongoDB and mingo alike.
      if (operand === null) return value === null || value === undefined;
      if (value === undefined || value === null) return false;
      return scalarEquals(value, get());
    };
  };
  if (isScalarLiteral(condition)) return equals(condition);
  const operators = asObject(condition);
  const tests = Object.entries(operators).map(([op, operand]): ((doc: Doc) => boolean) => {
    if (!isScalarLiteral(operand)) throw new NotCompilable(`the operand of ${op}`);
    if (op === "$eq") return equals(operand);
    if (op === "$ne") {
      const test = equals(operand);
      return (doc) => !test(doc);
    }
    const accept = RANGE[op];
    if (!accept || operand === null || typeof operand === "boolean") throw new NotCompilable(`the query operator ${op}`);
    const get = literal(operand);
    if (operand instanceof Date || operand instanceof DateParam) {
      // A Date range: compared by time, without the generic checks when the field holds a Date.
      return (doc) => {
        const value = doc[field];
        if (value instanceof Date) {
          // As compareSameType does (an invalid Date gives NaN, which no range accepts).
          return accept(Math.sign(value.getTime() - (get() as Date).getTime()));
        }
        const other = read(doc);
        if (other === undefined || other === null) throw new NotCompilable("a range test on a missing field");
        return accept(compareSameType(other, get()));
      };
    }
    return (doc) => {
      const value = read(doc);
      if (value === undefined || value === null) throw new NotCompilable("a range test on a missing field");
      return accept(compareSameType(value, get()));
    };
  });
  if (tests.length === 1) return tests[0] as (doc: Doc) => boolean;
  return (doc) => {
    for (const test of tests) if (!test(doc)) return false;
    return true;
  };
}

// ---------------------------------------------------------------- expressions

function compileExpr(expr: unknown): Expr {
  if (typeof expr === "string") {
    if (!expr.startsWith("$")) return () => expr;
    const field = expr.slice(1);
    if (field.startsWith("$") || field.includes(".") || field === "") throw new NotCompilable(`the path ${expr}`);
    return (doc) => doc[field];
  }
  if (isScalarLiteral(expr)) return literal(expr);
  if (Array.isArray(expr)) throw new NotCompilable("an array literal");
  const object = asObject(expr);
  const keys = Object.keys(object);
  if (keys.length === 0) return () => ({});
  if (keys.length !== 1 || !(keys[0] as string).startsWith("$")) throw new NotCompilable("an object literal");
  const op = keys[0] as string;
  const arg = object[op];
  const args = (count?: number): Expr[] => {
    if (!Array.isArray(arg) || (count !== undefined && arg.length !== count)) throw new NotCompilable(`the arguments of ${op}`);
    return arg.map(compileExpr);
  };
  const boolean = (value: unknown): boolean => {
    if (typeof value !== "boolean") throw new NotCompilable(`a non-boolean operand of ${op}`);
    return value;
  };
  switch (op) {
    case "$and": {
      const parts = args();
      return (doc) => {
        for (const part of parts) if (!boolean(part(doc))) return false;
        return true;
      };
    }
    case "$or": {
      const parts = args();
      return (doc) => {
        for (const part of parts) if (boolean(part(doc))) return true;
        return false;
      };
    }
    case "$not": {
      const [part] = args(1) as [Expr];
      return (doc) => !boolean(part(doc));
    }
    case "$eq":
    case "$ne": {
      const [a, b] = args(2) as [Expr, Expr];
      return op === "$eq" ? (doc) => scalarEquals(a(doc), b(doc)) : (doc) => !scalarEquals(a(doc), b(doc));
    }
    case "$gt":
    case "$gte":
    case "$lt":
    case "$lte": {
      const [a, b] = args(2) as [Expr, Expr];
      const accept = RANGE[op] as (order: number) => boolean;
      return (doc) => accept(compareSameType(a(doc), b(doc)));
    }
    case "$cond": {
      const [test, then, otherwise] = Array.isArray(arg)
        ? args(3)
        : [compileExpr(asObject(arg).if), compileExpr(asObject(arg).then), compileExpr(asObject(arg).else)];
      return (doc) => (boolean((test as Expr)(doc)) ? (then as Expr)(doc) : (otherwise as Expr)(doc));
    }
    case "$ifNull": {
      const [value, fallback] = args(2) as [Expr, Expr];
      return (doc) => {
        const found = value(doc);
        return found === null || found === undefined ? fallback(doc) : found;
      };
    }
    case "$size": {
      const inner = Array.isArray(arg) && arg.length === 1 ? arg[0] : arg;
      if (isPlainObject(inner) && Object.keys(inner).length === 1 && "$objectToArray" in inner) {
        // The number of fields, without building the array of {k, v} pairs first.
        const object = compileExpr(inner.$objectToArray);
        return (doc) => {
          const value = object(doc);
          if (!isPlainObject(value)) throw new NotCompilable("$objectToArray of a non-object");
          let count = 0;
          for (const key in value) if (Object.hasOwn(value, key)) count += 1;
          return count;
        };
      }
      const [part] = Array.isArray(arg) ? (args(1) as [Expr]) : [compileExpr(arg)];
      return (doc) => {
        const value = part(doc);
        if (!Array.isArray(value)) throw new NotCompilable("$size of a non-array");
        return value.length;
      };
    }
    case "$objectToArray": {
      const [part] = Array.isArray(arg) ? (args(1) as [Expr]) : [compileExpr(arg)];
      return (doc) => {
        const value = part(doc);
        if (!isPlainObject(value)) throw new NotCompilable("$objectToArray of a non-object");
        return Object.entries(value).map(([k, v]) => ({ k, v }));
      };
    }
    case "$dateToString": {
      const spec = asObject(arg);
      if (spec.format !== "%Y-%m-%d" || Object.keys(spec).some((key) => key !== "format" && key !== "date")) throw new NotCompilable("this $dateToString");
      const date = compileExpr(spec.date);
      const days = new Map<number, string>();
      return (doc) => {
        const value = date(doc);
        if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new NotCompilable("$dateToString of a non-date");
        // One string per UTC day, made once per run of the stage's day rather than once per document.
        const time = value.getTime();
        const day = Math.floor(time / DAY_MS);
        let text = days.get(day);
        if (text === undefined) {
          const year = value.getUTCFullYear();
          if (year < 0 || year > 9999) throw new NotCompilable("a year outside 0-9999");
          text = value.toISOString().slice(0, 10);
          if (days.size >= 4096) days.clear();
          days.set(day, text);
        }
        return text;
      };
    }
    default:
      throw new NotCompilable(`the operator ${op}`);
  }
}

// ---------------------------------------------------------------- $project, $group, $sort

// ---------------------------------------------------------------- $project, $group, $sort

function compileProject(spec: Record<string, unknown>): Stage {
  let keepId = true;
  const fields: [string, Expr | null][] = [];
  for (const [key, value] of Object.entries(spec)) {
    if (key.includes(".") || key.startsWith("$")) throw new NotCompilable(`the projected field ${key}`);
    if (key === "_id" && (value === 0 || value === false)) keepId = false;
    else if (value === 1 || value === true) fields.push([key, null]);
    else if (value === 0 || value === false) throw new NotCompilable("an exclusion projection");
    else if (typeof value === "number" || typeof value === "boolean") throw new NotCompilable("a literal number in a projection");
    else fields.push([key, compileExpr(value)]);
  }
  if (keepId && !fields.some(([key]) => key === "_id")) fields.unshift(["_id", null]);
  return (next) => ({
    push: (doc) => {
      const out: Doc = {};
      for (const [key, expr] of fields) {
        const value = expr ? expr(doc) : doc[key];
        // A missing field, or an expression that evaluates to missing, is left out.
        if (value !== undefined) out[key] = value;
      }
      next.push(out);
    },
    end: () => next.end(),
  });
}

interface Accumulator {
  start(): unknown;
  add(state: unknown, value: unknown): unknown;
  finish(state: unknown): unknown;
}

const ACCUMULATORS: Record<string, Accumulator> = {
  $sum: {
    start: () => 0,
    // Non-numbers (null, missing, strings) are ignored, as MongoDB does.
    add: (state, value) => (typeof value === "number" ? (state as number) + value : state),
    finish: (state) => state,
  },
  $max: extreme(1),
  $min: extreme(-1),
  $addToSet: {
    // A Set of the scalar values themselves: SameValueZero keeps 1 and "1" apart, as BSON does.
    start: () => new Set<unknown>(),
    add: (state, value) => {
      if (value !== null && (typeof value === "object" || value === undefined)) throw new NotCompilable("$addToSet of a non-scalar");
      (state as Set<unknown>).add(value);
      return state;
    },
    finish: (state) => [...(state as Set<unknown>)],
  },
};

/** `$max` (sign 1) / `$min` (sign -1): null and missing values are ignored; null when none is left. */
function extreme(sign: 1 | -1): Accumulator {
  return {
    start: () => null,
    add: (state, value) => {
      if (value === null || value === undefined) return state;
      if (state === null) {
        compareSameType(value, value);
        return value;
      }
      // Same-type strings: only the new value needs its ASCII check (the state passed it already).
      if (typeof value === "string" && typeof state === "string") {
        if (!ASCII.test(value)) throw new NotCompilable("a non-ASCII string in an ordering");
        return (value < state ? -1 : value > state ? 1 : 0) * sign > 0 ? value : state;
      }
      return compareSameType(value, state) * sign > 0 ? value : state;
    },
    finish: (state) => state,
  };
}

/**
 * A group's key in a Map: the scalar itself (SameValueZero keeps 1 and "1" apart, as BSON does);
 * a Date by its time, through `dates` (one key object per time, for this run only).
 */
function groupKey(value: unknown, dates: Map<number, object>): unknown {
  if (value === undefined) throw new NotCompilable("a group key from a missing field");
  if (value instanceof Date) {
    let key = dates.get(value.getTime());
    if (!key) dates.set(value.getTime(), (key = {}));
    return key;
  }
  if (value !== null && typeof value === "object") throw new NotCompilable("a group key that is an object or array");
  if (typeof value === "number" && Number.isNaN(value)) throw new NotCompilable("NaN as a group key");
  return value;
}


function compileGroup(spec: Record<string, unknown>): Stage {
  if (!("_id" in spec)) throw new NotCompilable("a $group without _id");
  const id = compileExpr(spec._id);
  const outputs = Object.entries(spec)
    .filter(([key]) => key !== "_id")
    .map(([key, value]) => {
      const op = asObject(value);
      const [name] = Object.keys(op);
      const accumulator = name === undefined || Object.keys(op).length !== 1 ? undefined : ACCUMULATORS[name];
      if (!accumulator) throw new NotCompilable(`the accumulator of ${key}`);
      return { key, accumulator, expr: compileExpr(op[name as string]) };
    });
  return (next) => {
    const groups = new Map<unknown, { id: unknown; states: unknown[] }>();
    const dates = new Map<number, object>();
    return {
      push: (doc) => {
        const value = id(doc);
        const key = groupKey(value, dates);
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { id: value, states: outputs.map((output) => output.accumulator.start()) }));
        const states = group.states;
        for (let i = 0; i < outputs.length; i += 1) {
          const output = outputs[i] as (typeof outputs)[number];
          states[i] = output.accumulator.add(states[i], output.expr(doc));
        }
      },
      end: () => {
        for (const group of groups.values()) {
          const out: Doc = { _id: group.id };
          outputs.forEach((output, i) => (out[output.key] = output.accumulator.finish(group.states[i])));
          next.push(out);
        }
        next.end();
      },
    };
  };
}

/** A document waiting in a `$sort`: its keys read once (numbers, ASCII strings, or Date times) and its arrival rank. */
interface Entry {
  doc: Doc;
  keys: (number | string)[];
  seq: number;
}

/**
 * `$sort`, keeping the best `limit` documents only (Infinity: all of them). Equal keys keep input
 * order (a stable sort, as mingo's): ties are broken by arrival rank. With a limit, a max-heap of at
 * most `limit` entries holds the best seen so far, its worst at the root, so a later document only
 * gets in when strictly better than that worst one.
 */
function compileSort(spec: Record<string, unknown>, limit: number): Stage {
  const fields: string[] = [];
  const directions: number[] = [];
  for (const [field, direction] of Object.entries(spec)) {
    if (direction !== 1 && direction !== -1) throw new NotCompilable("a sort direction other than 1 or -1");
    if (field.includes(".") || field.startsWith("$")) throw new NotCompilable(`the sort field ${field}`);
    fields.push(field);
    directions.push(direction);
  }
  const width = fields.length;
  /** Negative when `a` comes first. */
  const compare = (a: Entry, b: Entry): number => {
    for (let i = 0; i < width; i += 1) {
      const x = a.keys[i] as number | string;
      const y = b.keys[i] as number | string;
      if (x !== y) return (x < y ? -1 : 1) * (directions[i] as number);
    }
    return a.seq - b.seq;
  };
  return (next) => {
    // The type of each key ("number", "string" or "date"), fixed by the first document: a mix of types is left to mingo.
    const types: string[] = [];
    const heap: Entry[] = [];
    let seq = 0;
    const entryOf = (doc: Doc): Entry => {
      const keys: (number | string)[] = new Array<number | string>(width);
      for (let i = 0; i < width; i += 1) {
        const value = doc[fields[i] as string];
        let type: string;
        let key: number | string;
        if (typeof value === "number") {
          if (Number.isNaN(value)) throw new NotCompilable("NaN in a comparison");
          type = "number";
          key = value;
        } else if (typeof value === "string") {
          // MongoDB orders strings by UTF-8 bytes, JavaScript by UTF-16 units: they agree on ASCII.
          if (!ASCII.test(value)) throw new NotCompilable("a non-ASCII string in an ordering");
          type = "string";
          key = value;
        } else if (value instanceof Date) {
          type = "date";
          key = value.getTime();
          if (Number.isNaN(key)) throw new NotCompilable("an invalid date in an ordering");
        } else if (value === null || value === undefined) {
          throw new NotCompilable("a sort on a missing or null field");
        } else {
          throw new NotCompilable("an ordering of mixed or unsupported types");
        }
        if (types[i] === undefined) types[i] = type;
        else if (types[i] !== type) throw new NotCompilable("an ordering of mixed or unsupported types");
        // -0 and 0 are equal keys, as they are to compareSameType.
        keys[i] = key === 0 ? 0 : key;
      }
      return { doc, keys, seq: seq++ };
    };
    const siftUp = (at: number): void => {
      const entry = heap[at] as Entry;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (compare(heap[parent] as Entry, entry) >= 0) break;
        heap[at] = heap[parent] as Entry;
        at = parent;
      }
      heap[at] = entry;
    };
    const siftDown = (at: number): void => {
      const entry = heap[at] as Entry;
      const size = heap.length;
      for (;;) {
        let child = 2 * at + 1;
        if (child >= size) break;
        if (child + 1 < size && compare(heap[child + 1] as Entry, heap[child] as Entry) > 0) child += 1;
        if (compare(heap[child] as Entry, entry) <= 0) break;
        heap[at] = heap[child] as Entry;
        at = child;
      }
      heap[at] = entry;
    };
    return {
      push: (doc) => {
        const entry = entryOf(doc);
        if (limit === Infinity) heap.push(entry);
        else if (heap.length < limit) {
          heap.push(entry);
          siftUp(heap.length - 1);
        } else if (heap.length > 0 && compare(entry, heap[0] as Entry) < 0) {
          heap[0] = entry;
          siftDown(0);
        }
      },
      end: () => {
        heap.sort(compare);
        for (const entry of heap) next.push(entry.doc);
        next.end();
      },
    };
  };
}
