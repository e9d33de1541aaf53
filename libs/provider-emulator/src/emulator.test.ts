import { describe, expect, it } from "vitest";
import { CONTROL_TOKEN_HEADER, generateFromSchema, seededRng, startEmulator } from "./index";
import { useEmulator } from "./testing";

const emu = useEmulator();

const CATEGORIES = ["Yes", "No", "Maybe"];
const voteSchema = {
  type: "object",
  properties: { category: { type: "string", enum: CATEGORIES }, rationale: { type: "string" }, confidence: { type: "number" } },
  required: ["category", "rationale", "confidence"],
  additionalProperties: false,
};

const post = (path: string, body: unknown): Promise<Response> =>
  fetch(`${emu.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** A control request carrying the emulator's token (or any other header set). */
const control = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}, url = emu.url): Promise<Response> =>
  fetch(`${url}${path}`, {
    method: init.method ?? "GET",
    headers: { "content-type": "application/json", ...(init.headers ?? { [CONTROL_TOKEN_HEADER]: emu.controlToken }) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
const postControl = (path: string, body: unknown): Promise<Response> => control(path, { method: "POST", body });

const openaiBody = (question: string, images = 0, model = "gpt-4o") => ({
  model,
  messages: [
    { role: "system", content: "system prompt, not part of the question" },
    { role: "user", content: [{ type: "text", text: question }, ...Array.from({ length: images }, () => ({ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }))] },
  ],
  response_format: { type: "json_schema", json_schema: { name: "vote", strict: true, schema: voteSchema } },
});

async function openaiVote(question: string, model?: string): Promise<{ status: number; answer: Record<string, unknown> | null; body: Record<string, unknown> }> {
  const res = await post("/v1/chat/completions", openaiBody(question, 0, model));
  const body = (await res.json()) as Record<string, unknown>;
  const choices = body["choices"] as { message: { content: string } }[] | undefined;
  return { status: res.status, answer: choices ? (JSON.parse(choices[0]!.message.content) as Record<string, unknown>) : null, body };
}

describe("default answers", () => {
  it("are deterministic per (model, question), within the enum, with a reason naming the answer", async () => {
    const first = await openaiVote("Should I buy the red bike?");
    const again = await openaiVote("Should I buy the red bike?");
    expect(first.status).toBe(200);
    expect(again.answer).toEqual(first.answer);
    expect(CATEGORIES).toContain(first.answer!["category"]);
    expect(first.answer!["confidence"]).toBeGreaterThanOrEqual(0.55);
    expect(first.answer!["confidence"]).toBeLessThanOrEqual(0.95);
    expect(String(first.answer!["rationale"])).toContain(String(first.answer!["category"]));
    expect(String(first.answer!["rationale"])).toMatch(/^[^.]+\.$/); // one sentence
    expect(first.body).toMatchObject({ object: "chat.completion", model: "gpt-4o", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant" } }] });
  });

  it("give each model its own reason, so three simulated models do not repeat one sentence", async () => {
    const reasons = [];
    for (const model of ["gpt-4o", "gemini-2.5-flash", "claude-sonnet-4-6"]) {
      reasons.push(String((await openaiVote("Should we ship the release this Friday?", model)).answer!["rationale"]));
    }
    expect(new Set(reasons).size).toBe(3);
  });

  it("word the reason differently across questions", async () => {
    const reasons = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const { answer } = await openaiVote(`question ${i}`);
      reasons.add(String(answer!["rationale"]).replace(String(answer!["category"]), "{category}"));
    }
    expect(reasons.size).toBeGreaterThan(5);
  });

  it("spread over the enum across questions", async () => {
    const seen = new Set<unknown>();
    for (let i = 0; i < 30; i++) seen.add((await openaiVote(`question ${i}`)).answer!["category"]);
    expect(seen.size).toBeGreaterThan(1);
    for (const category of seen) expect(CATEGORIES).toContain(category);
  });

  it("walk Gemini's upper-case schema types and honour array bounds", () => {
    const value = generateFromSchema(
      {
        type: "OBJECT",
        properties: {
          suggestions: {
            type: "ARRAY",
            minItems: 3,
            maxItems: 6,
            items: { type: "OBJECT", properties: { category: { type: "STRING" }, confidence: { type: "NUMBER" } } },
          },
          pick: { type: "STRING", format: "enum", enum: ["a", "b"] },
          count: { type: ["integer", "null"], minimum: 5, maximum: 7 },
        },
      },
      seededRng("m", "q"),
    ) as { suggestions: { category: string; confidence: number }[]; pick: string; count: number };
    expect(value.suggestions.length).toBeGreaterThanOrEqual(3);
    expect(value.suggestions.length).toBeLessThanOrEqual(6);
    for (const s of value.suggestions) {
      expect(typeof s.category).toBe("string");
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
    }
    expect(["a", "b"]).toContain(value.pick);
    expect(Number.isInteger(value.count) && value.count >= 5 && value.count <= 7).toBe(true);
  });
});

describe("rules", () => {
  it("consume `times` and then fall through to the next rule or the default", async () => {
    emu.addRules([
      { times: 2, respond: { kind: "error", status: 503 } },
      { times: 1, respond: { kind: "answer", category: "Maybe" } },
    ]);
    expect((await openaiVote("q")).status).toBe(503);
    expect((await openaiVote("q")).status).toBe(503);
    expect((await openaiVote("q")).answer!["category"]).toBe("Maybe");
    expect(emu.rules()).toEqual([]);
    expect((await openaiVote("q")).status).toBe(200);
  });

  it("without `times` stay in force", async () => {
    emu.addRules({ respond: { kind: "answer", category: "No", confidence: 0.1, rationale: "scripted" } });
    for (let i = 0; i < 3; i++) expect((await openaiVote(`q${i}`)).answer).toEqual({ category: "No", rationale: "scripted", confidence: 0.1 });
    expect(emu.rules()).toHaveLength(1);
  });

  it("match question_contains against the user text only, and vendor and model", async () => {
    emu.addRules([
      { match: { question_contains: "coffee" }, respond: { kind: "answer", category: "Off-list" } },
      { match: { question_contains: "system prompt" }, respond: { kind: "error", status: 500 } },
      { match: { vendor: "anthropic" }, respond: { kind: "error", status: 500 } },
      { match: { model: "gpt-3" }, respond: { kind: "error", status: 500 } },
    ]);
    expect((await openaiVote("More coffee?")).answer!["category"]).toBe("Off-list");
    const tea = await openaiVote("More tea?");
    expect(tea.status).toBe(200);
    expect(CATEGORIES).toContain(tea.answer!["category"]);
  });

  it("apply latency and, for errors, the vendor's format with retry-after", async () => {
    emu.addRules({ latency_ms: 150, respond: { kind: "error", status: 429, retry_after_s: 2, message: "slow down" } });
    const started = Date.now();
    const res = await post("/v1/chat/completions", openaiBody("q"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("2");
    expect(await res.json()).toEqual({ error: { message: "slow down", type: "requests", param: null, code: "rate_limit_exceeded" } });
  });

  it("hang until the client gives up, then nothing lingers", async () => {
    emu.addRules({ times: 1, respond: { kind: "hang" } });
    await expect(
      fetch(`${emu.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(openaiBody("q")),
        signal: AbortSignal.timeout(200),
      }),
    ).rejects.toThrow();
    expect(emu.calls()).toHaveLength(1);
    expect((await openaiVote("q")).status).toBe(200);
  });

  it("reject invalid rules without adding any", () => {
    expect(() => emu.addRules([{ respond: { kind: "answer" } }, { respond: { kind: "error", status: 200 } }])).toThrow();
    expect(emu.rules()).toEqual([]);
  });
});

describe("wire formats", () => {
  it("Anthropic: forced tool_use reply, image blocks counted, malformed input, error body", async () => {
    const body = {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: "pick one",
      messages: [{ role: "user", content: [{ type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } }, { type: "text", text: "Tea?" }] }],
      tools: [{ name: "other", input_schema: { type: "object", properties: { x: { type: "string" } } } }, { name: "record_vote", input_schema: voteSchema }],
      tool_choice: { type: "tool", name: "record_vote" },
    };
    const ok = (await (await post("/v1/messages", body)).json()) as { content: { type: string; name: string; input: Record<string, unknown> }[] };
    expect(ok).toMatchObject({ type: "message", role: "assistant", model: "claude-sonnet-4-5", stop_reason: "tool_use" });
    expect(ok.content[0]).toMatchObject({ type: "tool_use", name: "record_vote" });
    expect(CATEGORIES).toContain(ok.content[0]!.input["category"]);
    expect(emu.calls()[0]).toMatchObject({ vendor: "anthropic", model: "claude-sonnet-4-5", prompt_text: "Tea?", image_count: 1 });

    emu.addRules([{ times: 1, respond: { kind: "malformed" } }, { times: 1, respond: { kind: "error", status: 529 } }]);
    const bad = (await (await post("/v1/messages", body)).json()) as { content: { input: Record<string, unknown> }[] };
    expect(bad.content[0]!.input).not.toHaveProperty("category");
    const overloaded = await post("/v1/messages", body);
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toMatchObject({ type: "error", error: { type: "overloaded_error" } });
  });

  it("Gemini: model from the path, inlineData counted, RetryInfo on scripted back-off", async () => {
    const body = {
      contents: [{ role: "user", parts: [{ text: "Tea?" }, { inlineData: { mimeType: "image/png", data: "AAAA" } }, { inlineData: { mimeType: "image/png", data: "AAAA" } }] }],
      systemInstruction: { role: "system", parts: [{ text: "pick one" }] },
      generationConfig: { responseMimeType: "application/json", responseSchema: { ...voteSchema, type: "OBJECT" } },
    };
    const path = "/v1beta/models/gemini-2.5-flash:generateContent";
    const ok = (await (await post(path, body)).json()) as { candidates: { content: { parts: { text: string }[] } }[]; modelVersion: string };
    expect(ok).toMatchObject({ modelVersion: "gemini-2.5-flash", candidates: [{ finishReason: "STOP", index: 0, content: { role: "model" } }] });
    expect(CATEGORIES).toContain((JSON.parse(ok.candidates[0]!.content.parts[0]!.text) as { category: string }).category);
    expect(emu.calls()[0]).toMatchObject({ vendor: "gemini", model: "gemini-2.5-flash", prompt_text: "Tea?", image_count: 2 });

    emu.addRules({ times: 1, respond: { kind: "error", status: 429, retry_after_s: 3 } });
    const limited = await post(path, body);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect(await limited.json()).toMatchObject({
      error: { code: 429, status: "RESOURCE_EXHAUSTED", details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "3s" }] },
    });
  });

  it("OpenAI: image_url parts counted; bad bodies are a 400 in the vendor's format", async () => {
    await post("/v1/chat/completions", openaiBody("q", 3));
    expect(emu.calls()[0]).toMatchObject({ vendor: "openai", image_count: 3 });
    const bad = await post("/v1/chat/completions", { messages: [] });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { type: "invalid_request_error" } });
  });
});

describe("token usage", () => {
  const anthropicBody = (question: string) => ({
    model: "claude-sonnet-4-6",
    max_tokens: 100,
    messages: [{ role: "user", content: [{ type: "text", text: question }] }],
    tools: [{ name: "record_vote", input_schema: voteSchema }],
    tool_choice: { type: "tool", name: "record_vote" },
  });
  const geminiBody = (question: string) => ({
    contents: [{ role: "user", parts: [{ text: question }] }],
    generationConfig: { responseMimeType: "application/json", responseSchema: { ...voteSchema, type: "OBJECT" } },
  });
  const GEMINI = "/v1beta/models/gemini-2.5-flash:generateContent";
  const json = async (res: Promise<Response>) => (await (await res).json()) as Record<string, unknown>;

  it("is estimated from the prompt, its images and the answer, the same for the same question", async () => {
    const short = await json(post("/v1/chat/completions", openaiBody("Tea?")));
    const again = await json(post("/v1/chat/completions", openaiBody("Tea?")));
    const withImages = await json(post("/v1/chat/completions", openaiBody("Tea?", 2)));
    const usage = short["usage"] as { prompt_tokens: number; completion_tokens: number; total_tokens: number };
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(again["usage"]).toEqual(short["usage"]);
    expect((withImages["usage"] as { prompt_tokens: number }).prompt_tokens).toBe(usage.prompt_tokens + 2 * 258);
  });

  it("is reported in each vendor's own fields, with reasoning tokens itemised as each vendor does", async () => {
    const usage = { input_tokens: 300, output_tokens: 50, reasoning_tokens: 20 };
    emu.addRules({ respond: { kind: "answer", usage } });
    expect((await json(post("/v1/chat/completions", openaiBody("q"))))["usage"]).toEqual({
      prompt_tokens: 300,
      completion_tokens: 50,
      total_tokens: 350,
      completion_tokens_details: { reasoning_tokens: 20 },
    });
    expect((await json(post("/v1/messages", anthropicBody("q"))))["usage"]).toEqual({ input_tokens: 300, output_tokens: 50 });
    expect((await json(post(GEMINI, geminiBody("q"))))["usageMetadata"]).toEqual({
      promptTokenCount: 300,
      candidatesTokenCount: 30,
      thoughtsTokenCount: 20,
      totalTokenCount: 350,
    });
  });

  it("is left out when a rule says null, and reported on malformed answers too", async () => {
    emu.addRules([
      { times: 3, respond: { kind: "answer", usage: null } },
      { times: 1, respond: { kind: "malformed", usage: { input_tokens: 7, output_tokens: 3 } } },
    ]);
    expect(await json(post("/v1/chat/completions", openaiBody("q")))).not.toHaveProperty("usage");
    expect(await json(post("/v1/messages", anthropicBody("q")))).not.toHaveProperty("usage");
    expect(await json(post(GEMINI, geminiBody("q")))).not.toHaveProperty("usageMetadata");
    expect((await json(post("/v1/chat/completions", openaiBody("q"))))["usage"]).toMatchObject({ prompt_tokens: 7, completion_tokens: 3 });
  });

  it("refuses a rule with more reasoning tokens than output tokens", () => {
    expect(() => emu.addRules({ respond: { kind: "answer", usage: { input_tokens: 1, output_tokens: 2, reasoning_tokens: 3 } } })).toThrow(/reasoning_tokens/);
    expect(emu.rules()).toEqual([]);
  });
});

describe("HTTP control endpoints", () => {
  it("add rules (one or many), list calls, reset, report health", async () => {
    expect(await (await postControl("/_emulator/rules", { respond: { kind: "malformed" }, times: 1 })).json()).toEqual({ added: 1, pending: 1 });
    const many = await postControl("/_emulator/rules", [{ respond: { kind: "hang" } }, { match: { vendor: "gemini" }, respond: { kind: "answer" } }]);
    expect(await many.json()).toEqual({ added: 2, pending: 3 });

    const invalid = await postControl("/_emulator/rules", { respond: { kind: "answer" }, match: { question_contain: "typo" } });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as { error: string }).error).toMatch(/question_contain/);

    const malformed = (await (await post("/v1/chat/completions", openaiBody("first"))).json()) as { choices: { message: { content: string } }[] };
    expect(() => JSON.parse(malformed.choices[0]!.message.content) as unknown).toThrow();

    const calls = (await (await control("/_emulator/calls")).json()) as unknown[];
    expect(calls).toEqual([
      {
        vendor: "openai",
        model: "gpt-4o",
        prompt_text: "first",
        image_count: 0,
        categories: CATEGORIES,
        at: expect.any(Number),
        outcome: "answered",
        ended_at: expect.any(Number),
      },
    ]);
    expect(await (await control("/_emulator/health")).json()).toEqual({ status: "ok", rules: 2, calls: 1 });

    expect((await postControl("/_emulator/reset", {})).status).toBe(200);
    expect(emu.calls()).toEqual([]);
    expect(emu.rules()).toEqual([]);
  });

  it("refuse every request without the control token, and change nothing for it", async () => {
    emu.addRules({ match: { question_contains: "kept" }, respond: { kind: "answer", category: "Maybe" } });
    await openaiVote("a question of some user");
    const routes = [
      { method: "GET", path: "/_emulator/rules" },
      { method: "POST", path: "/_emulator/rules", body: { respond: { kind: "error", status: 500 } } },
      { method: "POST", path: "/_emulator/reset", body: {} },
      { method: "GET", path: "/_emulator/calls" },
      { method: "GET", path: "/_emulator/health" },
    ];
    const wrongTokens: Record<string, string>[] = [{}, { [CONTROL_TOKEN_HEADER]: "guess" }, { [CONTROL_TOKEN_HEADER]: "" }, { authorization: `Bearer ${emu.controlToken}` }];
    for (const route of routes) {
      for (const headers of wrongTokens) {
        const res = await control(route.path, { method: route.method, body: route.body, headers });
        expect(res.status, `${route.method} ${route.path} ${JSON.stringify(headers)}`).toBe(401);
        const text = await res.text();
        expect(text).not.toContain("a question of some user");
        expect(text).toContain(CONTROL_TOKEN_HEADER);
      }
    }
    // Nothing was added, reset or read: the rule and the call are still there.
    expect(emu.rules()).toHaveLength(1);
    expect(emu.calls()).toHaveLength(1);
    expect((await openaiVote("kept")).answer!["category"]).toBe("Maybe");
  });

  it("use a new random token at each start, while the vendor routes keep answering any API key", async () => {
    const a = await startEmulator();
    const b = await startEmulator();
    try {
      expect(a.controlToken).not.toBe(b.controlToken);
      expect(a.controlToken.length).toBeGreaterThanOrEqual(32);
      expect((await control("/_emulator/rules", { headers: { [CONTROL_TOKEN_HEADER]: b.controlToken } }, a.url)).status).toBe(401);
      expect((await control("/_emulator/rules", { headers: { [CONTROL_TOKEN_HEADER]: a.controlToken } }, a.url)).status).toBe(200);
      const vendor = await fetch(`${a.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer sk-any-key" },
        body: JSON.stringify(openaiBody("Tea?")),
      });
      expect(vendor.status).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe("call log", () => {
  it("is not kept unless the emulator is started with recordCalls (as the test harness does)", async () => {
    const product = await startEmulator({ controlToken: "product-token-for-this-test" });
    try {
      const res = await fetch(`${product.url}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(openaiBody("a private question")),
      });
      expect(res.status).toBe(200);
      const withToken = { [CONTROL_TOKEN_HEADER]: "product-token-for-this-test" };
      const calls = await control("/_emulator/calls", { headers: withToken }, product.url);
      expect(calls.status).toBe(404);
      expect(await calls.text()).not.toContain("a private question");
      expect(await (await control("/_emulator/health", { headers: withToken }, product.url)).json()).toEqual({ status: "ok", rules: 0, calls: null });
      expect(() => product.calls()).toThrow(/recordCalls/);
      await expect(product.waitForCall(() => true)).rejects.toThrow(/recordCalls/);
    } finally {
      await product.close();
    }
  });
});

describe("waitForCall", () => {
  it("resolves with past or future calls and times out otherwise", async () => {
    await openaiVote("earlier");
    expect(await emu.waitForCall((c) => c.prompt_text === "earlier")).toMatchObject({ vendor: "openai" });
    const later = emu.waitForCall((c) => c.prompt_text === "later");
    await openaiVote("later");
    expect((await later).at).toBeLessThanOrEqual(Date.now());
    await expect(emu.waitForCall(() => false, 50)).rejects.toThrow(/no matching emulator call/);
  });
});

describe("close", () => {
  it("drops hanging connections instead of waiting for them", async () => {
    const other = await startEmulator({ recordCalls: true });
    other.addRules({ respond: { kind: "hang" } });
    const pending = fetch(`${other.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(openaiBody("q")),
    });
    await other.waitForCall(() => true);
    const started = Date.now();
    await other.close();
    await expect(pending).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
