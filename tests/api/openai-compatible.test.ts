import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { API_KEY_MESSAGES, ApiKeySchema, CHAT_MODELS, ChatCompletionSchema, DecisionHistoryDetailResponseSchema, ENSEMBLE_MODES, MESSAGES, type AuthResponse } from "@sd/contracts";
import type { EmulatorCall } from "@sd/provider-emulator";
import { useEmulator } from "@sd/provider-emulator/testing";
import { VOTE_CANCELLED_ERROR } from "@sd/queue";
import { callApi } from "@sd/testing/history";
import { savePreset } from "@sd/testing/presets";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * `/v1/chat/completions` and `/v1/models` driven by the official `openai` npm SDK, as an
 * integrator's code would: baseURL at our /v1, an API key as the OpenAI key.
 */
const emulator = useEmulator();
const stack = useStackWithMail(emulator, { API_KEY_RATE_LIMIT_PER_MINUTE: "1000", MAGIC_LINK_PER_IP_PER_HOUR: "1000" });

let alice: AuthResponse;
let client: OpenAI;
let key: string;

async function newKey(auth: AuthResponse): Promise<string> {
  const answer = await callApi(stack.url, "/api/api-keys", auth.tokens.access_token, { body: { name: "OpenAI client" } });
  expect(answer.status, answer.text).toBe(201);
  return ApiKeySchema.parse(answer.body).keyvalue!;
}

const openAi = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${stack.url}/v1`, maxRetries: 0 });

/** Each vendor of the default panel answers `category` for questions containing `marker`. */
function everyModelAnswers(marker: string, categories: Record<"openai" | "gemini" | "anthropic", string>) {
  emulator.addRules(
    Object.entries(categories).map(([vendor, category]) => ({
      match: { vendor: vendor as "openai", question_contains: marker },
      respond: { kind: "answer" as const, category, confidence: 0.8, usage: { input_tokens: 100, output_tokens: 20 } },
    })),
  );
}

const Decision = z.object({ answer: z.enum(["Ship", "Wait"]) });

beforeAll(async () => {
  alice = await stack.signIn();
  key = await newKey(alice);
  client = openAi(key);
});

describe("the OpenAI SDK against /v1", () => {
  it("lists the models: smart-decision and one per ensemble mode", async () => {
    const ids = [];
    for await (const model of client.models.list()) ids.push(model.id);
    expect(ids).toEqual(CHAT_MODELS.map((model) => model.id));
    expect(ids).toEqual(["smart-decision", ...ENSEMBLE_MODES.map((mode) => `smart-decision/${mode}`)]);
  });

  it("parses a decision with zodResponseFormat: the winning category in the schema's place, usage summed, the votes beside", async () => {
    everyModelAnswers("[parse]", { openai: "Ship", gemini: "Ship", anthropic: "Wait" });
    const completion = await client.chat.completions.parse({
      model: "smart-decision",
      messages: [
        { role: "system", content: "We release on weekdays only." },
        { role: "user", content: "[parse] Ship the release today?" },
      ],
      response_format: zodResponseFormat(Decision, "decision"),
    });
    const choice = completion.choices[0]!;
    expect(choice.message.parsed).toEqual({ answer: "Ship" });
    expect(choice.finish_reason).toBe("stop");
    expect(completion.object).toBe("chat.completion");
    expect(completion.usage).toEqual({ prompt_tokens: 300, completion_tokens: 60, total_tokens: 360 });

    // The extension, as a plain client receives it, is the stored decision.
    const extension = ChatCompletionSchema.parse(completion).smart_decision;
    expect(completion.id).toBe(`chatcmpl-${extension.decision_id}`);
    expect(extension.ensemble_decision).toBe("Ship");
    expect(extension.vote_details.map((vote) => [vote.llm_name, vote.response]).sort()).toEqual([
      ["claude", "Wait"],
      ["gemini", "Ship"],
      ["openai", "Ship"],
    ]);
    // Every model was asked the question with the system message ahead of it, and only the two categories.
    const asked = emulator.calls().filter((call) => call.prompt_text.includes("[parse]"));
    expect(asked).toHaveLength(3);
    for (const call of asked) {
      expect(call.prompt_text).toContain("We release on weekdays only.");
      expect(call.categories).toEqual(["Ship", "Wait"]);
    }
    // It is in the key owner's history like any /v1 decision.
    const stored = await callApi(stack.url, `/api/decision-history/${extension.decision_id}`, alice.tokens.access_token);
    expect(stored.status, stored.text).toBe(200);
    expect(DecisionHistoryDetailResponseSchema.parse(stored.body).decision.final_decision).toBe("Ship");
  });

  it("creates a completion for a mode's model id and a top-level enum, and with the key as SD-API-KEY too", async () => {
    everyModelAnswers("[mode]", { openai: "Wait", gemini: "Wait", anthropic: "Wait" });
    const completion = await client.chat.completions.create({
      model: "smart-decision/weighted_voting",
      messages: [{ role: "user", content: [{ type: "text", text: "[mode] Ship the release today?" }] }],
      response_format: { type: "json_schema", json_schema: { name: "decision", schema: { type: "string", enum: ["Ship", "Wait"] } } },
    });
    expect(JSON.parse(completion.choices[0]!.message.content!)).toBe("Wait");
    expect(completion.model).toBe("smart-decision/weighted_voting");
    const stored = await callApi(stack.url, `/api/decision-history/${ChatCompletionSchema.parse(completion).smart_decision.decision_id}`, alice.tokens.access_token);
    expect(DecisionHistoryDetailResponseSchema.parse(stored.body).decision.ensemble_mode).toBe("weighted_voting");

    const withHeader = new OpenAI({ apiKey: "unused", baseURL: `${stack.url}/v1`, maxRetries: 0, defaultHeaders: { "SD-API-KEY": key } });
    const models = await withHeader.models.list();
    expect(models.data.length).toBe(CHAT_MODELS.length);
  });

  it("streams with stream: true: each vote as it arrives in the extension, then the answer, the decision and the usage", async () => {
    // Staggered, so the votes arrive one by one, before the answer.
    emulator.addRules(
      (["openai", "gemini", "anthropic"] as const).map((vendor, i) => ({
        match: { vendor, question_contains: "[stream]" },
        latency_ms: 100 + i * 150,
        respond: { kind: "answer" as const, category: vendor === "gemini" ? "Wait" : "Ship", confidence: 0.7, rationale: `${vendor} says so.`, usage: { input_tokens: 10, output_tokens: 5 } },
      })),
    );
    const stream = await client.chat.completions.create({
      model: "smart-decision/majority_voting",
      messages: [{ role: "user", content: "[stream] Ship the release today?" }],
      response_format: zodResponseFormat(Decision, "decision"),
      stream: true,
      stream_options: { include_usage: true },
    });
    const events: string[] = [];
    let content = "";
    let usage: unknown = null;
    for await (const chunk of stream) {
      const extension = (chunk as unknown as { smart_decision?: { vote?: { llm_name: string; response: string; reason: string }; ensemble_decision?: string } }).smart_decision;
      if (extension?.vote) events.push(`vote ${extension.vote.llm_name} ${extension.vote.response} (${extension.vote.reason})`);
      const delta = chunk.choices[0]?.delta.content;
      if (delta) {
        content += delta;
        events.push("content");
      }
      if (chunk.choices[0]?.finish_reason) events.push(`stop ${extension?.ensemble_decision}`);
      if (chunk.usage) usage = chunk.usage;
    }
    expect(events).toEqual([
      "vote openai Ship (openai says so.)",
      "vote gemini Wait (gemini says so.)",
      "vote claude Ship (anthropic says so.)",
      "content",
      "stop Ship",
    ]);
    expect(Decision.parse(JSON.parse(content))).toEqual({ answer: "Ship" });
    expect(usage).toEqual({ prompt_tokens: 30, completion_tokens: 15, total_tokens: 45 });
  });

  it("cancels the models still thinking when the client aborts the stream, and the decision is stored from the votes that were in", async () => {
    emulator.addRules([
      { match: { vendor: "openai", question_contains: "[abort]" }, respond: { kind: "answer", category: "Ship", confidence: 0.9 } },
      { match: { vendor: "gemini", question_contains: "[abort]" }, respond: { kind: "hang" } },
      { match: { vendor: "anthropic", question_contains: "[abort]" }, respond: { kind: "hang" } },
    ]);
    const stream = await client.chat.completions.create({
      model: "smart-decision/majority_voting",
      messages: [{ role: "user", content: "[abort] Ship the release today?" }],
      response_format: zodResponseFormat(Decision, "decision"),
      stream: true,
    });
    let decisionId: string | undefined;
    for await (const chunk of stream) {
      decisionId = (chunk as unknown as { smart_decision?: { decision_id?: string } }).smart_decision?.decision_id;
      // The first vote is in; the other two models hang: the integrator gives up (the SDK aborts the request on break).
      if (decisionId) break;
    }
    const abortedAt = Date.now();
    expect(decisionId).toBeDefined();

    // Both hung calls are dropped by the workers at once, not left to the SDK's timeout (2 s here) and its retries.
    const hung = (call: EmulatorCall) => call.prompt_text.includes("[abort]") && call.vendor !== "openai";
    const ended = await Promise.all([
      emulator.waitForCallEnd((call) => hung(call) && call.vendor === "gemini", 5000),
      emulator.waitForCallEnd((call) => hung(call) && call.vendor === "anthropic", 5000),
    ]);
    expect(ended.map((call) => call.outcome)).toEqual(["dropped", "dropped"]);
    for (const call of ended) expect(call.ended_at! - abortedAt).toBeLessThan(1000);

    // The decision completes from the one vote that was in, and says why the others are missing.
    await expect
      .poll(async () => (await callApi(stack.url, `/api/decision-history/${decisionId}`, alice.tokens.access_token)).status, { timeout: 5000, interval: 50 })
      .toBe(200);
    const { decision } = DecisionHistoryDetailResponseSchema.parse((await callApi(stack.url, `/api/decision-history/${decisionId}`, alice.tokens.access_token)).body);
    expect(decision.final_decision).toBe("Ship");
    expect(decision.error_details).toEqual({ gemini: VOTE_CANCELLED_ERROR, claude: VOTE_CANCELLED_ERROR });
    expect(emulator.calls().filter(hung)).toHaveLength(2);
  });

  it("takes a panel preset of the key's owner as a model id, listed by GET /v1/models; another user's preset is an unknown model", async () => {
    await savePreset(stack.url, alice.tokens.access_token, "release-board", { ensemble_mode: "weighted_voting", models: ["openai", "claude"], early_quorum: false });
    const ids = (await client.models.list()).data.map((model) => model.id);
    expect(ids).toContain("smart-decision/release-board");
    expect(ids.slice(0, CHAT_MODELS.length)).toEqual(CHAT_MODELS.map((model) => model.id));

    everyModelAnswers("[preset]", { openai: "Wait", gemini: "Ship", anthropic: "Wait" });
    const completion = await client.chat.completions.parse({
      model: "smart-decision/release-board",
      messages: [{ role: "user", content: "[preset] Ship the release today?" }],
      response_format: zodResponseFormat(Decision, "decision"),
    });
    expect(completion.model).toBe("smart-decision/release-board");
    expect(completion.choices[0]!.message.parsed).toEqual({ answer: "Wait" });
    const stored = await callApi(stack.url, `/api/decision-history/${ChatCompletionSchema.parse(completion).smart_decision.decision_id}`, alice.tokens.access_token);
    const { decision } = DecisionHistoryDetailResponseSchema.parse(stored.body);
    expect(decision.ensemble_mode).toBe("weighted_voting");
    expect(decision.ensemble?.panel).toEqual(["openai", "claude"]);

    const bob = await stack.signIn();
    const bobsModels = (await openAi(await newKey(bob)).models.list()).data.map((model) => model.id);
    expect(bobsModels).not.toContain("smart-decision/release-board");
    const refused = await openAi(await newKey(bob))
      .chat.completions.create({ model: "smart-decision/release-board", messages: [{ role: "user", content: "Ship?" }], response_format: zodResponseFormat(Decision, "decision") })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
    expect((refused as InstanceType<typeof OpenAI.NotFoundError>).code).toBe("model_not_found");
  });

  it("turns an image_url data URL into the decision's image", async () => {
    everyModelAnswers("[image]", { openai: "Ship", gemini: "Ship", anthropic: "Ship" });
    const png = `data:image/png;base64,${Buffer.alloc(64, 1).toString("base64")}`;
    await client.chat.completions.create({
      model: "smart-decision",
      messages: [{ role: "user", content: [{ type: "text", text: "[image] Is this chart fit to ship?" }, { type: "image_url", image_url: { url: png } }] }],
      response_format: zodResponseFormat(Decision, "decision"),
    });
    const asked = emulator.calls().filter((call) => call.prompt_text.includes("[image]"));
    expect(asked.map((call) => call.image_count)).toEqual([1, 1, 1]);
  });
});

describe("errors in OpenAI's shape, thrown by the SDK as its own error classes", () => {
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OpenAI.APIError);
    const { status, error: body } = error as InstanceType<typeof OpenAI.APIError>;
    return { status, body: body as { message: string; type: string; param: string | null; code: string | null } };
  };
  const ask = (overrides: Record<string, unknown>) =>
    client.chat.completions.create({ model: "smart-decision", messages: [{ role: "user", content: "Ship it?" }], response_format: zodResponseFormat(Decision, "decision"), ...overrides } as never);

  it("refuses a request without categories with a 400 that says how to give them, and asks no model", async () => {
    const { status, body } = await refusal(client.chat.completions.create({ model: "smart-decision", messages: [{ role: "user", content: "Ship it?" }] }));
    expect(status).toBe(400);
    expect(body).toMatchObject({ type: "invalid_request_error", param: "response_format", code: null });
    expect(body.message).toMatch(/^No categories were given\. Give the allowed answers as response_format .*zodResponseFormat/);
    const twoEnums = await refusal(
      ask({ response_format: zodResponseFormat(z.object({ a: z.enum(["x", "y"]), b: z.enum(["p", "q"]) }), "two") }),
    );
    expect([twoEnums.status, twoEnums.body.message]).toEqual([400, "The response_format schema has 2 string enums (a, b): give exactly one, the categories."]);
    expect(emulator.calls()).toEqual([]);
  });

  it("answers the REST API's validation texts in OpenAI's shape", async () => {
    const oneCategory = await refusal(ask({ response_format: { type: "json_schema", json_schema: { name: "d", schema: { type: "string", enum: ["Only"] } } } }));
    expect([oneCategory.status, oneCategory.body.message]).toEqual([400, MESSAGES.categoriesRequired.detail]);
    const noUser = await refusal(ask({ messages: [{ role: "system", content: "Be brief." }] }));
    expect([noUser.status, noUser.body.param]).toEqual([400, "messages"]);
    const link = await refusal(ask({ messages: [{ role: "user", content: [{ type: "text", text: "This?" }, { type: "image_url", image_url: { url: "https://example.com/a.png" } }] }] }));
    expect(link.body.message).toBe("image_url must be a data URL (data:image/...;base64,...): links to images are not fetched.");
    expect(emulator.calls()).toEqual([]);
  });

  it("answers an unknown model 404 model_not_found, a missing or unknown key 401 invalid_api_key", async () => {
    const unknown = await refusal(ask({ model: "gpt-4o" }));
    expect(unknown).toMatchObject({ status: 404, body: { code: "model_not_found", param: "model" } });
    const badKey = await refusal(openAi("sd_live_not-a-key").models.list());
    expect(badKey).toEqual({ status: 401, body: { message: API_KEY_MESSAGES.invalidKey, type: "invalid_request_error", param: null, code: "invalid_api_key" } });
    // A signed-in user's access token is not an API key.
    const session = await refusal(openAi(alice.tokens.access_token).models.list());
    expect(session.status).toBe(401);
    const response = await fetch(`${stack.url}/v1/models`);
    expect([response.status, await response.json()]).toEqual([401, { error: { message: API_KEY_MESSAGES.missingKey, type: "invalid_request_error", param: null, code: "invalid_api_key" } }]);
  });

  it("refuses bad input to a stream before the first event, with its status", async () => {
    const { status, body } = await refusal(ask({ stream: true, model: "gpt-4o" }));
    expect([status, body.code]).toEqual([404, "model_not_found"]);
    expect(emulator.calls()).toEqual([]);
  });

  it("answers a body that is not JSON 400 in OpenAI's shape", async () => {
    const response = await fetch(`${stack.url}/v1/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{not json" });
    expect([response.status, await response.json()]).toEqual([400, { error: { message: "The request body is not valid JSON.", type: "invalid_request_error", param: null, code: null } }]);
  });
});
