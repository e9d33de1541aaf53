import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { API_KEY_HEADER, ApiKeySchema } from "@sd/contracts";
import { ENDPOINT_LIST } from "@sd/contracts/endpoints";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";
import { createWebhook } from "@sd/testing/webhooks";

/**
 * The parameter patterns and enums of the served /openapi.json are the validators': for every
 * query parameter and header the document constrains, values that match are accepted and values
 * that do not are refused with 400.
 */

const ADMIN_EMAIL = "parameters-admin@example.com";
const SAMPLES = 4;
const SEED = 29;
/** Candidates for a value a pattern or enum refuses; each is used only where it really does not match. */
const NOT_MATCHING = ["", "-1", "abc", "1.5", " 1", "1234567890", "TRUE", "Day", "é", "a b", "x".repeat(256)];

interface Parameter {
  name: string;
  in: "query" | "header" | "path";
  schema: { pattern?: string; enum?: string[] };
}
interface Constrained {
  method: string;
  path: string;
  parameter: Parameter;
}

const emulator = useEmulator();
// No limit in the way: the table sends a few dozen requests with one key from one address.
const stack = useStackWithMail(emulator, { ADMIN_EMAILS: ADMIN_EMAIL, API_KEY_RATE_LIMIT_PER_MINUTE: "1000000", API_MONTHLY_QUOTA: "1000000" });
let credentials: Record<"user" | "admin", Record<string, string>>;
let constrained: Constrained[];
let userId: string;
/** One of the user's webhook endpoints: its delivery log has constrained paging parameters. */
let webhookId: string;

beforeAll(async () => {
  const user = await stack.signIn();
  const admin = await stack.signIn(ADMIN_EMAIL);
  userId = user.user.id;
  webhookId = (await createWebhook(stack.url, user.tokens.access_token)).id;
  credentials = {
    user: { authorization: `Bearer ${user.tokens.access_token}` },
    admin: { authorization: `Bearer ${admin.tokens.access_token}` },
  };
  const document = (await (await fetch(`${stack.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> };
  constrained = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, op]) => (op.parameters ?? []).filter((p) => p.in !== "path" && (p.schema.pattern || p.schema.enum)).map((parameter) => ({ method, path, parameter }))),
  );
});

function matching(schema: Parameter["schema"]): string[] {
  if (schema.enum) return schema.enum;
  return fc.sample(fc.stringMatching(new RegExp(schema.pattern!)), { numRuns: SAMPLES, seed: SEED });
}

function notMatching(schema: Parameter["schema"]): string[] {
  const matches = (value: string) => (schema.enum ? schema.enum.includes(value) : new RegExp(schema.pattern!).test(value));
  return NOT_MATCHING.filter((value) => !matches(value));
}

/**
 * An API key per operation: Idempotency-Keys are the key's, across its operations, so the same
 * sampled value sent to two operations (with their two bodies) would rightly be a 422 reuse.
 */
const keysByPath = new Map<string, Record<string, string>>();
async function keyFor(path: string): Promise<Record<string, string>> {
  if (!keysByPath.has(path)) {
    const key = await callApi(stack.url, "/api/api-keys", credentials.user.authorization!.slice("Bearer ".length), { body: { name: path.slice(0, 50) } });
    expect(key.status, key.text).toBe(201);
    keysByPath.set(path, { [API_KEY_HEADER]: ApiKeySchema.required({ keyvalue: true }).parse(key.body).keyvalue });
  }
  return keysByPath.get(path)!;
}

async function send({ method, path, parameter }: Constrained, value: string): Promise<number> {
  const op = ENDPOINT_LIST.find((o) => o.method === method && o.path === path)!;
  const caller = op.access === "api-key" ? await keyFor(op.path) : op.tag === "admin" ? credentials.admin : op.access === "public" ? {} : credentials.user;
  const example = Object.values(op.body?.examples ?? {})[0]?.value;
  const query = parameter.in === "query" ? `?${new URLSearchParams({ [parameter.name]: value })}` : "";
  const headers = { ...caller, ...(parameter.in === "header" ? { [parameter.name]: value } : {}) };
  // The path parameters of constrained operations are the caller's own user id and webhook endpoint.
  // A batch file is sent as written, as JSONL; every other example body as JSON.
  const body = example === undefined ? {} : op.body?.contentType === "application/jsonl" ? { rawBody: example as string, headers: { ...headers, "content-type": "application/jsonl" } } : { body: example };
  const answer = await callApi(stack.url, `${path.replace("{userId}", userId).replace(/^\/api\/webhooks\/\{id\}/, `/api/webhooks/${webhookId}`)}${query}`, null, { method, headers, ...body });
  return answer.status;
}

it("accepts every value a documented pattern or enum matches and refuses with 400 every value it does not", async () => {
  expect(constrained.length, "the document constrains some parameters").toBeGreaterThan(0);
  const mismatches: string[] = [];
  for (const entry of constrained) {
    const where = `${entry.method.toUpperCase()} ${entry.path} ${entry.parameter.in} ${entry.parameter.name}`;
    for (const value of matching(entry.parameter.schema)) {
      const status = await send(entry, value);
      if (status >= 400) mismatches.push(`${where}=${JSON.stringify(value)} matches the document but was refused (${status})`);
    }
    for (const value of notMatching(entry.parameter.schema)) {
      // A header value's surrounding whitespace is not part of it (HTTP strips it), so it cannot be sent.
      if (entry.parameter.in === "header" && value !== value.trim()) continue;
      const status = await send(entry, value);
      if (status !== 400) mismatches.push(`${where}=${JSON.stringify(value.slice(0, 40))} does not match the document but was answered ${status}`);
    }
  }
  expect(mismatches).toEqual([]);
}, 180_000);
