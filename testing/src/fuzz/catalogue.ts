import fc from "fast-check";
import { ENDPOINT_LIST, type DocumentedOperation } from "@sd/contracts/endpoints";
import { badJsonBodies, badJsonlBodies, JSONL_CONTENT_TYPE, jsonlOperatorVariants, operatorInEveryStringField, rawBodies } from "./json-body";
import { badForms, type MultipartRecipe } from "./multipart";
import type { BodyRecipe, Caller, RequestRecipe } from "./recipe";
import { callerRefusal } from "./refusal";
import { junkFor, operatorExamples, refusedFor, type Bodies, type Part } from "./request-arbitraries";
import type { IdKind } from "./wire";

/**
 * The endpoints to fuzz, read from the OpenAPI operations (services/gateway/src/openapi): a new
 * operation is fuzzed without editing the suite, and one the suite cannot build requests for
 * (an unknown kind of path parameter, a body without an example or generator) is reported.
 */

export interface FuzzTarget {
  op: DocumentedOperation;
  /** `POST /v1/ensemble` */
  title: string;
  /** What each path parameter names. */
  idKinds: Record<string, IdKind>;
  /** Requests the contract refuses (bad credentials, ids nobody owns, bad query, headers or body); null when none can be built. */
  refused: fc.Arbitrary<RequestRecipe> | null;
  /** `{"$ne": ...}`, `{"$gt": ""}` and `{"$where": ...}` in every string field, query parameter and path parameter, sent first. */
  operatorExamples: RequestRecipe[];
  /** GET calls that need not be refused (junk, edge values): they must still never fail or leak. */
  junk: fc.Arbitrary<RequestRecipe> | null;
  /** Callers for whom no refused request exists and whose call is not a GET (it would act), with why. */
  notSent: string[];
}

/** What a path parameter names, by its name and the path segment before it. */
const PATH_PARAMETERS: readonly { name: string; after?: readonly string[]; kind: IdKind }[] = [
  { name: "userId", kind: "user" },
  { name: "id", after: ["api-keys"], kind: "apiKey" },
  { name: "id", after: ["decision", "decisions", "decision-history"], kind: "decision" },
  { name: "id", after: ["image-assets"], kind: "imageAsset" },
  { name: "token", after: ["shared"], kind: "shareToken" },
  { name: "id", after: ["presets"], kind: "preset" },
  { name: "id", after: ["batches"], kind: "batch" },
  { name: "id", after: ["webhooks"], kind: "webhook" },
  { name: "delivery_id", after: ["deliveries"], kind: "webhookDelivery" },
];

const MULTIPART_FORMS: Readonly<Record<string, true>> = { applyForJob: true };

function exampleOf(op: DocumentedOperation): unknown {
  return Object.values(op.body?.examples ?? {})[0]?.value;
}

function callersOf(op: DocumentedOperation): Caller[] {
  return ["anonymous", "user", "badCredential", ...(op.access === "api-key" ? (["apiKey"] as const) : []), ...(op.tag === "admin" ? (["admin"] as const) : [])];
}

function resolveIdKinds(op: DocumentedOperation, missing: string[]): Record<string, IdKind> {
  const kinds: Record<string, IdKind> = {};
  const segments = op.path.split("/");
  segments.forEach((segment, index) => {
    const name = /^\{(\w+)\}$/.exec(segment)?.[1];
    if (!name) return;
    const before = segments[index - 1] ?? "";
    const known = PATH_PARAMETERS.find((p) => p.name === name && (!p.after || p.after.includes(before)));
    if (known) kinds[name] = known.kind;
    else missing.push(`${op.method.toUpperCase()} ${op.path}: no generator for the path parameter {${name}} after "${before}"`);
  });
  return kinds;
}

function bodiesOf(op: DocumentedOperation, title: string, missing: string[]): Bodies | null {
  if (!op.body) {
    // A body where none is expected is only noise; GET requests carry none (their caller decides).
    const noise = op.method === "get" ? fc.constant(undefined) : fc.option(rawBodies("{}"), { nil: undefined });
    return { valid: undefined, bad: noise, operatorVariants: [] };
  }
  const example = exampleOf(op);
  if (example === undefined) {
    missing.push(`${title}: no documented example body to build requests from`);
    return null;
  }
  if (op.body.contentType === "multipart/form-data") {
    if (!MULTIPART_FORMS[op.operationId]) {
      missing.push(`${title}: no model of which multipart forms it refuses`);
      return null;
    }
    const fields = example as Record<string, string>;
    const base: MultipartRecipe = { parts: Object.entries(fields).map(([name, value]) => ({ name, value })), damage: "none", cut: 0 };
    return {
      valid: { kind: "multipart", form: base },
      bad: badForms(fields).map((form): BodyRecipe => ({ kind: "multipart", form })),
      operatorVariants: Object.keys(fields).map(
        (field): BodyRecipe => ({ kind: "multipart", form: { ...base, parts: base.parts.map((p) => (p.name === field ? { name: `${field}[$ne]`, value: "x" } : p)) } }),
      ),
    };
  }
  if (op.body.contentType === "application/jsonl") {
    // A batch file: its lines are the bodies to make bad (a JSON body is refused for its Content-Type alone).
    const text = example as string;
    return { valid: { kind: "raw", contentType: JSONL_CONTENT_TYPE, text }, bad: badJsonlBodies(text), operatorVariants: jsonlOperatorVariants(text) };
  }
  return { valid: { kind: "json", value: example }, bad: badJsonBodies(op.body.schema, example), operatorVariants: operatorInEveryStringField(op.body.schema, example) };
}

export interface Catalogue {
  targets: FuzzTarget[];
  /** Operations (or parts of them) the suite has no generator for. */
  missing: string[];
}

export function fuzzCatalogue(operations: readonly DocumentedOperation[] = ENDPOINT_LIST): Catalogue {
  const missing: string[] = [];
  const targets = operations.flatMap((op): FuzzTarget[] => {
    const title = `${op.method.toUpperCase()} ${op.path}`;
    const idKinds = resolveIdKinds(op, missing);
    const bodies = bodiesOf(op, title, missing);
    if (!bodies) return [];
    const idNames = Object.keys(idKinds);
    const parts: Part[] = [...(idNames.length > 0 ? (["params"] as const) : []), ...(op.query ? (["query"] as const) : []), ...(op.headers ? (["headers"] as const) : []), ...(op.body ? (["body"] as const) : [])];
    const refusable: Caller[] = [];
    const junkCallers: Caller[] = [];
    const notSent: string[] = [];
    for (const caller of callersOf(op)) {
      if (callerRefusal(op, caller) !== null || parts.length > 0) refusable.push(caller);
      else if (op.method === "get") junkCallers.push(caller);
      else notSent.push(`${caller}: the call declares no input to make bad, so it would be accepted and act`);
    }
    if (refusable.length === 0 && op.method !== "get") {
      missing.push(`${title}: no caller for whom a request could be refused, and it is not a read`);
      return [];
    }
    return [
      {
        op,
        title,
        idKinds,
        refused: refusable.length > 0 ? fc.oneof(...refusable.map((caller) => refusedFor(op, caller, parts, bodies, idNames))) : null,
        operatorExamples: operatorExamples(op, bodies, idNames),
        // Every caller of a GET that takes input, or the callers of one without input who may make it.
        junk: op.method === "get" && (parts.length > 0 || junkCallers.length > 0) ? junkFor(op, parts.length > 0 ? callersOf(op) : junkCallers, idNames) : null,
        notSent,
      },
    ];
  });
  return { targets, missing };
}
