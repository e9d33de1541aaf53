import { parse as parseQueryString } from "node:querystring";
import { BATCH_LIMITS, BatchLineInputSchema } from "@sd/contracts";
import type { DocumentedBody, DocumentedOperation } from "@sd/contracts/endpoints";
import { formRefusal } from "./multipart";
import type { Caller, RequestRecipe } from "./recipe";
import type { WireRequest } from "./wire";

/**
 * Why a generated request must be refused, judged from what is sent and the contract alone (the
 * operation's access, the zod schemas of libs/contracts, the documented parsing rules), never
 * from the server's answer. A request no rule here refuses is not sent as a refused one: fast-check
 * skips it (`fc.pre`), so the "nothing written" check only ever sees refused requests.
 */

export function callerRefusal(op: DocumentedOperation, caller: Caller): string | null {
  if (op.access === "bearer") {
    if (caller !== "user" && caller !== "admin") return "no valid bearer token";
    if (op.tag === "admin" && caller !== "admin") return "not an admin";
  }
  if (op.access === "api-key" && caller !== "apiKey") return "no valid API key";
  return null;
}

/**
 * What express.json makes of a body: the parsed value, undefined when it does not parse this
 * Content-Type, "refused" when it answers 400/415 itself, or "unknown" where this model is unsure.
 */
function parsedBody(contentType: string | null, body: Buffer | null): { value: unknown } | "refused" | "unknown" {
  if (contentType === null || body === null) return { value: undefined };
  const [type = "", ...params] = contentType.split(";").map((part) => part.trim().toLowerCase());
  if (type !== "application/json") return /^[\w.+-]+\/[\w.+-]+$/.test(type) ? { value: undefined } : "unknown";
  if (params.some((param) => !/^[\w-]+=[\w-]+$/.test(param))) return "unknown";
  const charset = params.find((param) => param.startsWith("charset="))?.slice("charset=".length);
  if (charset !== undefined && !charset.startsWith("utf-")) return "refused";
  if (charset !== undefined && charset !== "utf-8") return "unknown";
  const text = body.toString("utf8");
  if (text.length === 0) return { value: {} };
  if (text.startsWith("\uFEFF")) return "unknown";
  // Strict mode: only an object or an array, then JSON.parse.
  if (!/^[ \t\n\r]*[[{]/.test(text)) return "refused";
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return "refused";
  }
}

const JSONL_TYPES = ["application/jsonl", "application/x-ndjson"];

/**
 * A batch file (POST /v1/batches): sent as JSONL, with at least one line and at most 10,000, each
 * a JSON object its line schema accepts, no custom_id twice. A JSONL body that passes may still be
 * refused (a model that is not configured): then it is not certainly refused, so not sent as such.
 */
function jsonlRefusal(wire: WireRequest): string | null {
  const type = (wire.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (!JSONL_TYPES.includes(type)) return "a batch that is not JSONL";
  const lines = (wire.body ?? Buffer.alloc(0)).toString("utf8").split("\n").filter((line) => line.trim() !== "");
  if (lines.length === 0) return "a batch with no line";
  if (lines.length > BATCH_LIMITS.maxLines) return "a batch with too many lines";
  const ids = new Set<string>();
  for (const line of lines) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return "a batch line that is not JSON";
    }
    const parsed = BatchLineInputSchema.safeParse(value);
    if (!parsed.success) return "a batch line its schema refuses";
    if (ids.has(parsed.data.custom_id)) return "a custom_id used twice";
    ids.add(parsed.data.custom_id);
  }
  return null;
}

/** A DELETE's body is optional (the document marks it so): no body reads as `{}`. */
function bodyRefusal(op: DocumentedOperation, schema: DocumentedBody["schema"], wire: WireRequest): string | null {
  // Only a route that says so takes a compressed body, and none does.
  const encoding = wire.headers["content-encoding"];
  if (wire.body !== null && encoding !== undefined && encoding !== "identity") return "a compressed body (Content-Encoding)";
  if (op.body?.contentType === "application/jsonl") return jsonlRefusal(wire);
  const parsed = parsedBody(wire.contentType, wire.body);
  if (parsed === "refused") return "a body the JSON parser refuses";
  if (parsed === "unknown") return null;
  let value = parsed.value;
  if (value === undefined || value === null) {
    if (op.method !== "delete") return "no JSON object";
    value = {};
  }
  if (typeof value !== "object" || Array.isArray(value)) return "not a JSON object";
  return schema.safeParse(value).success ? null : "a body its schema refuses";
}

/** Names the query parser would nest (`a[b]`, `a.b`) or that look like operators are refused (http/validate.ts). */
const NESTED_OR_OPERATOR_NAME = /[[\].$]/;

function queryRefusal(schema: NonNullable<DocumentedOperation["query"]>, wire: WireRequest): string | null {
  const query = parseQueryString(wire.query);
  const name = Object.keys(query).find((n) => NESTED_OR_OPERATOR_NAME.test(n));
  if (name !== undefined) return `the query name ${JSON.stringify(name)}`;
  return schema.safeParse({ ...query }).success ? null : "a query its schema refuses";
}

function headerRefusal(schema: NonNullable<DocumentedOperation["headers"]>, wire: WireRequest): string | null {
  const sent = Object.fromEntries(Object.entries(wire.headers).map(([name, value]) => [name.toLowerCase(), Array.isArray(value) ? value.join(", ") : value]));
  const declared = Object.fromEntries(Object.keys(schema.shape).flatMap((name) => (sent[name.toLowerCase()] === undefined ? [] : [[name, sent[name.toLowerCase()]]])));
  return schema.safeParse(declared).success ? null : "a header its schema refuses";
}

/** The first reason the request must be refused, or null if nothing certainly refuses it. */
export function refusalOf(op: DocumentedOperation, recipe: RequestRecipe, wire: WireRequest): string | null {
  const reasons = [
    callerRefusal(op, recipe.caller),
    Object.keys(recipe.badParams).length > 0 ? "a path parameter that names nothing of the caller's" : null,
    op.query ? queryRefusal(op.query, wire) : null,
    op.headers ? headerRefusal(op.headers, wire) : null,
    recipe.body?.kind === "multipart" ? formRefusal(recipe.body.form) : op.body ? bodyRefusal(op, op.body.schema, wire) : null,
  ];
  return reasons.find((reason) => reason !== null) ?? null;
}
