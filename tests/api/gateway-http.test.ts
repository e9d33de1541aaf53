import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { openStore } from "@sd/store";
import { LiveClient, postJson } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const SUGGEST = "/api/smart-suggestion-public";
const png = (bytes: number) => `data:image/png;base64,${Buffer.alloc(bytes, 1).toString("base64")}`;

const emulator = useEmulator();
let stack: InProcessStack;

beforeAll(async () => {
  stack = await startStack(testEnv(emulator.url, { BODY_LIMIT_MB: "45" }));
});
afterAll(async () => {
  await stack?.close();
});

const post = (path: string, body: unknown) => postJson(`${stack.url}${path}`, body);

describe("decision request validation", () => {
  const valid = { question: "Tea or coffee?", categories: ["Tea", "Coffee"] };
  const cases: [string, unknown, number, string][] = [
    ["a missing question", { categories: ["Tea", "Coffee"] }, 400, MESSAGES.questionRequired.detail],
    ["a blank question", { ...valid, question: "   " }, 400, MESSAGES.questionRequired.detail],
    ["one category", { ...valid, categories: ["Tea"] }, 400, MESSAGES.categoriesRequired.detail],
    ["two categories that are one after trimming", { ...valid, categories: ["Tea", " Tea "] }, 400, MESSAGES.categoriesRequired.detail],
    ["empty categories only", { ...valid, categories: ["", "  "] }, 400, MESSAGES.categoriesRequired.detail],
    ["four images", { ...valid, images: [png(10), png(10), png(10), png(10)] }, 400, MESSAGES.maxImages.detail],
    ["an image that is not a data URL", { ...valid, images: ["https://example.com/cat.png"] }, 400, MESSAGES.invalidImageType.detail],
    ["a file that is not an image", { ...valid, images: ["data:application/pdf;base64,JVBERi0="] }, 400, MESSAGES.invalidImageType.detail],
    ["an image that is not even a string", { ...valid, images: [{ "$ne": "" }] }, 400, MESSAGES.invalidImageType.detail],
    ["an image of 10 MB", { ...valid, images: [png(10 * 1024 * 1024)] }, 413, MESSAGES.imagesTooLarge],
  ];

  it.each(cases)("refuses %s with the specification's message", async (_name, body, status, detail) => {
    const response = await post(PUBLIC, body);
    expect(response.status).toBe(status);
    expect(response.body.detail).toBe(detail);
    expect(emulator.calls()).toHaveLength(0);
  });

  it("names the problem's title for the playground's toast", async () => {
    const response = await post(PUBLIC, { ...valid, categories: ["Tea"] });
    expect(response.body.title).toBe(MESSAGES.categoriesRequired.title);
  });

  it("answers 413 with the specification's message for a body over the limit", async () => {
    const response = await post(PUBLIC, { ...valid, images: [png(12 * 1024 * 1024), png(12 * 1024 * 1024), png(12 * 1024 * 1024)] });
    expect(response.status).toBe(413);
    expect(response.body.detail).toBe(MESSAGES.imagesTooLarge);
  });

  it("answers 400 with a clear message for malformed JSON", async () => {
    const response = await fetch(`${stack.url}${PUBLIC}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"question": "Tea?", "categories": [',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ detail: "The request body is not valid JSON." });
  });

  it("refuses a body that is not JSON", async () => {
    const response = await fetch(`${stack.url}${PUBLIC}`, { method: "POST", body: "question=Tea" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toMatch(/JSON/);
  });

  it("refuses a reused request_id, so two decisions never share a live room", async () => {
    const client = new LiveClient(stack.url);
    try {
      await client.join();
      const first = await post(PUBLIC, { ...valid, request_id: client.requestId });
      expect(first.status).toBe(200);
      const second = await post(PUBLIC, { ...valid, request_id: client.requestId });
      expect(second.status).toBe(409);
    } finally {
      client.close();
    }
  });

  it("keeps a long-lived connection usable: joining past the room cap leaves the oldest room", async () => {
    const client = new LiveClient(stack.url);
    try {
      for (let i = 0; i < 25; i++) expect(await client.join(crypto.randomUUID())).toEqual({ ok: true });
      await client.join();
      const { status } = await post(PUBLIC, { ...valid, request_id: client.requestId });
      expect(status).toBe(200);
      expect((await client.final()).request_id).toBe(client.requestId);
    } finally {
      client.close();
    }
  });

  it("lets a socket join only a request room named by a UUID", async () => {
    const client = new LiveClient(stack.url);
    try {
      expect(await client.join("admin")).toEqual({ ok: false, error: "request_id must be a UUID." });
    } finally {
      client.close();
    }
  });
});

describe("suggestions", () => {
  it("returns new categories with a confidence and drops the ones already chosen", async () => {
    const response = await post(SUGGEST, { question: "Which city for the offsite?", images: [], existing_choices: ["lisbon"] });
    expect(response.status).toBe(200);
    const suggestions = response.body.suggestions as { category: string; confidence: number }[];
    expect(suggestions.length).toBeGreaterThan(0);
    for (const s of suggestions) {
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
    }
    // One fast model answers: the suggestion provider (Gemini by default).
    expect(emulator.calls().map((c) => c.vendor)).toEqual(["gemini"]);
  });

  it("drops a suggestion equal to an existing choice, whatever its case", async () => {
    const first = await post(SUGGEST, { question: "Which city for the offsite?", images: [], existing_choices: [] });
    const [taken] = first.body.suggestions as { category: string }[];
    const second = await post(SUGGEST, { question: "Which city for the offsite?", images: [], existing_choices: [taken!.category.toUpperCase()] });
    const categories = (second.body.suggestions as { category: string }[]).map((s) => s.category.toLowerCase());
    expect(categories).not.toContain(taken!.category.toLowerCase());
  });

  it("requires a question", async () => {
    const response = await post(SUGGEST, { question: " ", images: [], existing_choices: [] });
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe("Question is required");
  });
});

describe("operations endpoints", () => {
  it("reports health, readiness and Prometheus metrics, the metrics on METRICS_PORT only", async () => {
    expect(await (await fetch(`${stack.url}/health`)).json()).toEqual({ status: "ok" });
    expect(await (await fetch(`${stack.url}/ready`)).json()).toEqual({ status: "ready" });
    await post(PUBLIC, { question: "Metrics?", categories: ["A", "B"] });
    const metrics = await (await fetch(`${stack.metricsUrl}/metrics`)).text();
    expect(metrics).toMatch(/sd_decisions_total\{outcome="decided"\} [1-9]/);
    expect(metrics).toMatch(/sd_vote_duration_seconds_count\{provider="openai",outcome="success"\} [1-9]/);
    expect(metrics).toMatch(new RegExp(`sd_queue_jobs\\{deployment="${stack.vars.QUEUE_PREFIX}",queue="vote-openai",state="waiting"\\} 0`));
    expect(metrics).toContain("sd_http_request_duration_seconds");
    // Series that count failures are there at 0 before any failure, so the dashboard reads 0, not "No data".
    expect(metrics).toMatch(/sd_decisions_total\{outcome="no_decision"\} 0/);
    expect(metrics).toMatch(/sd_vote_errors_total\{provider="openai",kind="server"\} 0/);
    expect(metrics).toMatch(/sd_vote_duration_seconds_count\{provider="openai",outcome="error"\} 0/);
    expect(await (await fetch(`${stack.metricsUrl}/ready`)).json()).toEqual({ status: "ready" });

    const publicMetrics = await fetch(`${stack.url}/metrics`);
    expect(publicMetrics.status).toBe(404);
    expect(await publicMetrics.json()).toEqual({ detail: "Not found" });
  });

  it("labels each request with its route template, errors answered by the error handler included, and every unmatched path alike", async () => {
    await fetch(`${stack.url}/v1/ensemble`, { method: "POST" });
    await fetch(`${stack.url}/api/image-assets/no-such-image`);
    await fetch(`${stack.url}/api/decision-history/no-such-decision`);
    await fetch(`${stack.url}/no/such/path-${Date.now()}`);
    const metrics = await (await fetch(`${stack.metricsUrl}/metrics`)).text();
    const routes = new Set([...metrics.matchAll(/sd_http_request_duration_seconds_count\{[^}]*route="([^"]*)"/g)].map((match) => match[1]));
    expect(metrics).toMatch(/sd_http_request_duration_seconds_count\{method="POST",route="\/v1\/ensemble",status="401"\} [1-9]/);
    expect(metrics).toMatch(/sd_http_request_duration_seconds_count\{method="GET",route="\/api\/image-assets\/\{id\}",status="404"\} [1-9]/);
    expect(metrics).toMatch(/sd_http_request_duration_seconds_count\{method="GET",route="\/api\/decision-history\/\{id\}",status="401"\} [1-9]/);
    expect(metrics).toMatch(/sd_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} [1-9]/);
    // Only templates and fixed names: no raw path, no regex source.
    expect([...routes].filter((route) => /no-such|path-\d|\\|\^/.test(route!))).toEqual([]);
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const response = await fetch(`${stack.url}/api/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ detail: "Not found" });
  });
});

describe("configuration", () => {
  it("refuses to start when IMAGE_TTL_SECONDS would let images expire while their decision can still run", async () => {
    // 20 s of waiting for the result plus 15 s of retrying the write: images must live 35 s at least.
    await expect(startStack(testEnv(emulator.url, { DECISION_TIMEOUT_MS: "20000", IMAGE_TTL_SECONDS: "34" }))).rejects.toThrow(
      /^IMAGE_TTL_SECONDS: must be at least 35 /,
    );
  });
});

describe("the embedded store across a restart", () => {
  it("keeps decisions when the process stops and starts again", async () => {
    const own = await startStack(testEnv(emulator.url));
    const { body } = await postJson(`${own.url}${PUBLIC}`, { question: "Survive a restart?", categories: ["Yes", "No"] });
    await own.close();
    const store = await openStore({ mongoUrl: null, dataDir: own.vars.DATA_DIR! });
    try {
      const stored = await store.decisions.findById(body.decision_id as string);
      expect(stored?.question).toBe("Survive a restart?");
      expect(stored?.final_decision).toBe(body.final_decision);
    } finally {
      await store.close();
    }
  });
});
