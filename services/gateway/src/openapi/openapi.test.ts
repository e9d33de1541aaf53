import { describe, expect, it } from "vitest";
import { API_KEY_HEADER, BatchRejectedSchema, ENSEMBLE_MODE_LABELS, ENSEMBLE_MODES, ErrorResponseSchema, OpenAiErrorSchema, V1_HEADERS } from "@sd/contracts";
import { buildOpenApiDocument, SECURITY_SCHEMES } from "./document";
import { ENDPOINT_LIST, JsonRpcErrorSchema } from "@sd/contracts/endpoints";

const document = buildOpenApiDocument();

type Json = Record<string, unknown>;
const operationOf = (path: string, method: string) => (document.paths?.[path] as Json | undefined)?.[method] as Json | undefined;

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with the SD-API-KEY and bearer security schemes", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.components?.securitySchemes?.[SECURITY_SCHEMES.apiKey]).toMatchObject({ type: "apiKey", in: "header", name: API_KEY_HEADER });
    expect(document.components?.securitySchemes?.[SECURITY_SCHEMES.bearer]).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("names every ensemble mode in its introduction, and which one is the default", () => {
    const intro = String(document.info.description);
    for (const mode of ENSEMBLE_MODES) expect(intro).toContain(`${ENSEMBLE_MODE_LABELS[mode]} (\`${mode}\``);
    expect(intro).toContain("(`majority_voting`, the default)");
  });

  it("has one operation per documented endpoint, each with a unique operationId and a summary", () => {
    const ids = ENDPOINT_LIST.map((op) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const keys = ENDPOINT_LIST.map((op) => `${op.method} ${op.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const op of ENDPOINT_LIST) {
      const documented = operationOf(op.path, op.method);
      expect(documented, `${op.method} ${op.path}`).toMatchObject({ operationId: op.operationId, summary: op.summary });
    }
  });

  it("declares every path parameter of every path template", () => {
    for (const op of ENDPOINT_LIST) {
      const names = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const parameters = (operationOf(op.path, op.method)?.parameters ?? []) as { in: string; name: string; required?: boolean }[];
      const declared = parameters.filter((p) => p.in === "path");
      expect(declared.map((p) => p.name).sort(), `${op.method} ${op.path}`).toEqual(names.sort());
      for (const parameter of declared) expect(parameter.required, `${op.path} ${parameter.name}`).toBe(true);
    }
  });

  it("documents /v1/ensemble with the key, Prefer: respond-async, Idempotency-Key, every status and the rate-limit headers", () => {
    const ensemble = operationOf("/v1/ensemble", "post")!;
    expect(ensemble.security).toEqual([{ [SECURITY_SCHEMES.apiKey]: [] }]);
    const headers = (ensemble.parameters as { in: string; name: string }[]).filter((p) => p.in === "header").map((p) => p.name);
    expect(headers).toEqual(expect.arrayContaining([V1_HEADERS.prefer, V1_HEADERS.idempotencyKey]));
    const responses = ensemble.responses as Record<string, { headers?: Json }>;
    expect(Object.keys(responses)).toEqual(expect.arrayContaining(["200", "202", "400", "401", "413", "422", "429"]));
    expect(Object.keys(responses["200"]?.headers ?? {})).toEqual(expect.arrayContaining(["RateLimit", "RateLimit-Policy"]));
    expect(Object.keys(responses["429"]?.headers ?? {})).toEqual(expect.arrayContaining(["RateLimit", "RateLimit-Policy", "Retry-After"]));
  });

  it("documents each /v1 vote's status (success, error or skipped) next to the specification's llm_name, response and confidence", () => {
    const ref = ((operationOf("/v1/ensemble", "post")!.responses as Json)["200"] as { content: Record<string, { schema: { $ref: string } }> }).content["application/json"]!.schema.$ref;
    const result = document.components?.schemas?.[ref.split("/").pop()!] as { properties: Record<string, { items: { properties: Record<string, Json>; required: string[] } }> };
    const vote = result.properties.vote_details!.items;
    expect(vote.required.sort()).toEqual(["confidence", "cost_usd", "latency_ms", "llm_name", "response", "status", "usage"]);
    expect(vote.properties.status).toMatchObject({ type: "string", enum: ["success", "error", "skipped"] });
    expect(String(vote.properties.status!.description)).toContain("skipped: early quorum decided before this vote was needed");
    // Polling answers the same result.
    expect(JSON.stringify(operationOf("/v1/decisions/{id}", "get"))).toContain(ref);
  });

  it("puts a 401 on every operation that needs a key or a token", () => {
    for (const op of ENDPOINT_LIST.filter((o) => o.access === "api-key" || o.access === "bearer")) {
      expect(Object.keys(op.responses), `${op.method} ${op.path}`).toContain("401");
    }
  });

  it("answers errors as {detail} wherever the route does", () => {
    for (const op of ENDPOINT_LIST.filter((o) => !o.path.startsWith("/api/image-assets") && o.path !== "/api/email-request" && o.path !== "/ready")) {
      for (const [status, response] of Object.entries(op.responses)) {
        // 431 is Node's own answer to oversized headers, before any route: it has no body.
        if (Number(status) < 400 || Number(status) === 431) continue;
        // The OpenAI-compatible routes answer OpenAI's error shape; the MCP transport answers JSON-RPC errors of its own.
        // A batch refused for its lines adds the lines to `detail` (BatchRejectedSchema extends {detail}).
        const batchLines = op.operationId === "createBatch" && status === "422";
        const expected =
          op.errorShape === "openai"
            ? OpenAiErrorSchema
            : op.path === "/mcp" && response.body?.schema === JsonRpcErrorSchema
              ? JsonRpcErrorSchema
              : batchLines
                ? BatchRejectedSchema
                : ErrorResponseSchema;
        expect(response.body?.schema, `${op.method} ${op.path} ${status}`).toBe(expected);
      }
    }
  });
});

describe("the documented examples", () => {
  const cases = ENDPOINT_LIST.flatMap((op) => [
    ...Object.entries(op.body?.examples ?? {}).map(([name, example]) => ({ where: `${op.method} ${op.path} request ${name}`, schema: op.body!.schema, value: example.value, io: "input" as const })),
    ...Object.entries(op.responses).flatMap(([status, response]) =>
      Object.entries(response.body?.examples ?? {}).map(([name, example]) => ({
        where: `${op.method} ${op.path} ${status} ${name}`,
        schema: response.body!.schema,
        value: example.value,
        io: "output" as const,
      })),
    ),
  ]);

  it("exist for every request body and every answer with a body", () => {
    for (const op of ENDPOINT_LIST) {
      if (op.body) expect(Object.keys(op.body.examples).length, `${op.method} ${op.path}`).toBeGreaterThan(0);
      for (const [status, response] of Object.entries(op.responses)) {
        if (response.body) expect(Object.keys(response.body.examples).length, `${op.method} ${op.path} ${status}`).toBeGreaterThan(0);
      }
    }
  });

  it.each(cases)("$where validates against its schema", ({ schema, value, io }) => {
    const parsed = schema.safeParse(value);
    expect(parsed.error?.issues ?? []).toEqual([]);
    // An answer is exactly what the schema describes: nothing it would strip, nothing it would change.
    if (io === "output") expect(parsed.data).toEqual(value);
  });

  it("are what the document shows", () => {
    for (const op of ENDPOINT_LIST) {
      const documented = operationOf(op.path, op.method)!;
      if (op.body) {
        const content = (documented.requestBody as { content: Record<string, { examples: Json }> }).content;
        expect(content[op.body.contentType ?? "application/json"]?.examples).toEqual(op.body.examples);
      }
      for (const [status, response] of Object.entries(op.responses)) {
        if (!response.body) continue;
        const content = (documented.responses as Record<string, { content: Record<string, { examples: Json }> }>)[status]!.content;
        expect(content[response.body.contentType ?? "application/json"]?.examples, `${op.path} ${status}`).toEqual(response.body.examples);
      }
    }
  });
});
