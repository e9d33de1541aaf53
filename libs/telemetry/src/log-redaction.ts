/**
 * What a log line may carry. Errors from clients (ioredis, HTTP SDKs, body parsers) hold the data
 * they were given: a refused Redis write keeps every argument of its transaction, images included.
 * Logs are read by more people and kept longer than that data, so every logged value passes here.
 */

/** The longest string kept whole; longer ones are cut, with their length noted. */
const MAX_LOGGED_STRING = 1024;
/** A stack trace is longer than a message but no less likely to quote one. */
const MAX_LOGGED_STACK = 2048;
/** How deep objects, and chains of `cause`, are followed. */
const MAX_DEPTH = 4;
const MAX_ARRAY_ITEMS = 20;
const MAX_OBJECT_KEYS = 40;

/** Fields that hold what a client sent or what was sent for it: never logged, whatever their size. */
const DROPPED_FIELDS = new Set(["args", "arguments", "body", "rawBody", "payload", "image", "images", "image_data", "data_url"]);

const DATA_URL = /data:[a-z0-9.+-]+\/[a-z0-9.+-]+(?:;[a-z0-9=.+-]+)*,[^\s"'<>]*/gi;

/** `value` without data URLs and cut to `limit` characters. */
export function redactString(value: string, limit = MAX_LOGGED_STRING): string {
  const withoutData = value.includes("data:") ? value.replace(DATA_URL, (url) => `[data URL, ${url.length} chars]`) : value;
  return withoutData.length <= limit ? withoutData : `${withoutData.slice(0, limit)}…[${withoutData.length} chars]`;
}

/**
 * An error as a log line shows it: type, message, code, status, the Redis command's name (not its
 * arguments), its stack at the top level, and its causes and previous errors in the same form,
 * a few levels deep. Nothing else of the error object is copied.
 */
function serializeError(error: unknown, depth = 0): unknown {
  if (!(error instanceof Error)) return redactLogValue(error, depth);
  const fields = error as Error & Record<string, unknown>;
  const out: Record<string, unknown> = { type: error.constructor?.name ?? error.name, message: redactString(error.message) };
  if (error.name !== out.type) out.name = redactString(error.name, 100);
  for (const key of ["code", "status", "statusCode", "errno", "syscall"] as const) {
    const value = fields[key];
    if (typeof value === "number" || typeof value === "boolean") out[key] = value;
    else if (typeof value === "string") out[key] = redactString(value, 100);
  }
  const command = fields.command as { name?: unknown } | undefined;
  if (command && typeof command.name === "string") out.command = redactString(command.name, 100);
  if (depth === 0 && typeof error.stack === "string") out.stack = redactString(error.stack, MAX_LOGGED_STACK);
  if (depth < MAX_DEPTH) {
    if (error.cause !== undefined) out.cause = serializeError(error.cause, depth + 1);
    for (const key of ["previousErrors", "errors"] as const) {
      const list = fields[key];
      if (Array.isArray(list)) out[key] = list.slice(0, 5).map((item) => serializeError(item, depth + 1));
    }
  }
  return out;
}

/** Any logged value, made safe: errors serialized as above, strings cut, client data dropped, depth bounded. */
function redactLogValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return redactString(value);
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Error) return serializeError(value, depth);
  if (depth >= MAX_DEPTH) return "[object]";
  if (Buffer.isBuffer(value) || ArrayBuffer.isView(value)) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ARRAY_ITEMS).map((item) => redactLogValue(item, depth + 1));
    if (value.length > MAX_ARRAY_ITEMS) items.push(`…[${value.length} items]`);
    return items;
  }
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === "function") return redactLogValue(toJSON.call(value), depth + 1);
  const out: Record<string, unknown> = {};
  let kept = 0;
  for (const key of Object.keys(value)) {
    if (kept++ >= MAX_OBJECT_KEYS) break;
    out[key] = DROPPED_FIELDS.has(key) ? "[redacted]" : redactLogValue((value as Record<string, unknown>)[key], depth + 1);
  }
  return out;
}

/** pino's `formatters.log`: the object a log call was given, with every field made safe. */
export function redactLogFields(fields: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) out[key] = DROPPED_FIELDS.has(key) ? "[redacted]" : redactLogValue(fields[key]);
  return out;
}
