import fc from "fast-check";

/**
 * Values too large to print: fast-check shows a failing input in its report, so a 1 MB string or
 * 10,000 levels of nesting are kept as a short recipe and only written out when the request is sent.
 */

/** `prefix` + `unit` repeated `count` times + `suffix`, e.g. a 1 MB question or a huge data URL. */
export class Huge {
  constructor(
    readonly unit: string,
    readonly count: number,
    readonly prefix = "",
    readonly suffix = "",
  ) {}

  text(): string {
    return this.prefix + this.unit.repeat(this.count) + this.suffix;
  }

  [fc.toStringMethod](): string {
    return `huge(${JSON.stringify(this.prefix)} + ${JSON.stringify(this.unit)} x ${this.count} + ${JSON.stringify(this.suffix)})`;
  }
}

/** JSON nested `levels` deep (arrays or objects), as raw JSON text. */
export class Deep {
  constructor(
    readonly levels: number,
    readonly kind: "array" | "object",
  ) {}

  text(): string {
    return this.kind === "array" ? "[".repeat(this.levels) + "]".repeat(this.levels) : '{"a":'.repeat(this.levels) + "1" + "}".repeat(this.levels);
  }

  [fc.toStringMethod](): string {
    return `deep(${this.kind} x ${this.levels})`;
  }
}

/** A string that may be a Huge recipe. */
export type Text = string | Huge;

export const textOf = (value: Text): string => (typeof value === "string" ? value : value.text());

/**
 * An object whose keys are all own properties, `__proto__` included (an object literal would set
 * the prototype instead), exactly as JSON.parse builds one on the server.
 */
export function own(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Huge) && !(value instanceof Deep);

/** JSON text of a value that may hold Huge and Deep recipes (JSON.stringify would not expand them). */
export function toJsonText(value: unknown): string {
  if (value instanceof Huge) return JSON.stringify(value.text());
  if (value instanceof Deep) return value.text();
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(",")}]`;
  if (isPlainObject(value)) return `{${Object.keys(value).map((key) => `${JSON.stringify(key)}:${toJsonText(value[key])}`).join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

/** A path into a JSON value: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

/** A copy of `root` with `value` at `path`, creating the objects and arrays on the way. */
export function setAt(root: unknown, path: JsonPath, value: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (typeof head === "number") {
    const array = Array.isArray(root) ? [...(root as unknown[])] : [];
    array[head] = setAt(array[head], rest, value);
    // Array.from visits holes too (map would keep them, and they are not JSON).
    return Array.from(array, (item) => item ?? null);
  }
  const base = isPlainObject(root) ? root : {};
  const entries = Object.keys(base).filter((key) => key !== head).map((key) => [key, base[key]] as const);
  return own([...entries, [head, setAt(base[head], rest, value)]]);
}

/** A copy of `root` without what is at `path`. */
export function deleteAt(root: unknown, path: JsonPath): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return undefined;
  if (typeof head === "number") {
    if (!Array.isArray(root)) return root;
    if (rest.length > 0) return root.map((item, index) => (index === head ? deleteAt(item, rest) : item));
    return root.filter((_item, index) => index !== head);
  }
  if (!isPlainObject(root)) return root;
  if (rest.length > 0) return own(Object.keys(root).map((key) => [key, key === head ? deleteAt(root[key], rest) : root[key]] as const));
  return own(Object.keys(root).filter((key) => key !== head).map((key) => [key, root[key]] as const));
}
