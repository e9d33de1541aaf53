import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { beforeAll, describe, expect, it } from "vitest";
import { API_KEY_MESSAGES, ApiKeySchema, ENSEMBLE_MODES, HISTORY_MESSAGES, MESSAGES, SmartDecisionExtensionSchema, V1DecisionStatusSchema, type AuthResponse } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi } from "@sd/testing/history";
import { savePreset } from "@sd/testing/presets";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/** `/mcp` driven by the MCP TypeScript SDK's own Client over Streamable HTTP, as an agent host would. */
const emulator = useEmulator();
const stack = useStackWithMail(emulator, { API_KEY_RATE_LIMIT_PER_MINUTE: "1000", MAGIC_LINK_PER_IP_PER_HOUR: "1000" });

async function newKey(auth: AuthResponse): Promise<string> {
  const answer = await callApi(stack.url, "/api/api-keys", auth.tokens.access_token, { body: { name: "MCP" } });
  expect(answer.status, answer.text).toBe(201);
  return ApiKeySchema.parse(answer.body).keyvalue!;
}

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: "sd-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
  return client;
}

let alice: AuthResponse;
let aliceKey: string;
let aliceClient: Client;
let bobClient: Client;

beforeAll(async () => {
  alice = await stack.signIn();
  aliceKey = await newKey(alice);
  aliceClient = await connect(aliceKey);
  bobClient = await connect(await newKey(await stack.signIn()));
});

const textOf = (result: { content?: unknown }) => ((result.content as { type: string; text: string }[])[0]!).text;

describe("the MCP server through the MCP SDK's client", () => {
  it("lists decide, get_decision and list_models with their input and output schemas", async () => {
    const { tools } = await aliceClient.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["decide", "get_decision", "list_models"]);
    const decide = tools.find((tool) => tool.name === "decide")!;
    expect(decide.inputSchema.required).toEqual(["question", "categories"]);
    expect(Object.keys(decide.outputSchema!.properties!)).toEqual(expect.arrayContaining(["decision_id", "ensemble_decision", "vote_details", "consensus_score", "cost_usd"]));
  });

  it("decides: structured content with every vote and its reason, a one-line text, stored in the key owner's history", async () => {
    emulator.addRules(
      (["openai", "gemini", "anthropic"] as const).map((vendor) => ({
        match: { vendor, question_contains: "[mcp]" },
        respond: { kind: "answer" as const, category: vendor === "anthropic" ? "Wait" : "Ship", confidence: 0.8, rationale: `${vendor} thinks so.` },
      })),
    );
    const result = await aliceClient.callTool({ name: "decide", arguments: { question: "[mcp] Ship the release today?", categories: ["Ship", "Wait"] } });
    expect(result.isError).toBeFalsy();
    const decision = SmartDecisionExtensionSchema.parse(result.structuredContent);
    expect(decision.ensemble_decision).toBe("Ship");
    expect(decision.vote_details.map((vote) => [vote.llm_name, vote.response, vote.reason]).sort()).toEqual([
      ["claude", "Wait", "anthropic thinks so."],
      ["gemini", "Ship", "gemini thinks so."],
      ["openai", "Ship", "openai thinks so."],
    ]);
    expect(textOf(result)).toMatch(new RegExp(`^Decision: Ship\\. Votes: .*Decision id ${decision.decision_id}\\.$`));

    const again = await aliceClient.callTool({ name: "get_decision", arguments: { decision_id: decision.decision_id } });
    expect(V1DecisionStatusSchema.parse(again.structuredContent)).toMatchObject({ status: "complete", result: { ensemble_decision: "Ship" } });
    const history = await callApi(stack.url, `/api/decision-history/${decision.decision_id}`, alice.tokens.access_token);
    expect(history.status, history.text).toBe(200);
  });

  it("answers another user's decision as not found, and bad input with the REST API's texts as tool errors, asking no model", async () => {
    const made = await aliceClient.callTool({ name: "decide", arguments: { question: "Tea or coffee?", categories: ["Tea", "Coffee"] } });
    const { decision_id } = SmartDecisionExtensionSchema.parse(made.structuredContent);
    emulator.reset();

    const other = await bobClient.callTool({ name: "get_decision", arguments: { decision_id } });
    expect([other.isError, textOf(other)]).toEqual([true, HISTORY_MESSAGES.notFound]);
    const oneCategory = await aliceClient.callTool({ name: "decide", arguments: { question: "Tea?", categories: ["Tea"] } });
    expect([oneCategory.isError, textOf(oneCategory)]).toEqual([true, MESSAGES.categoriesRequired.detail]);
    const noQuestion = await aliceClient.callTool({ name: "decide", arguments: { question: "  ", categories: ["Tea", "Coffee"] } });
    expect([noQuestion.isError, textOf(noQuestion)]).toEqual([true, MESSAGES.questionRequired.detail]);
    expect(emulator.calls()).toEqual([]);
  });

  it("sends a progress notification per vote while decide runs, when the client gives a progress token", async () => {
    emulator.addRules(
      (["openai", "gemini", "anthropic"] as const).map((vendor, i) => ({
        match: { vendor, question_contains: "[progress]" },
        latency_ms: 100 + i * 150,
        respond: { kind: "answer" as const, category: "Ship", confidence: 0.7 },
      })),
    );
    const progress: { progress: number; message?: string }[] = [];
    const result = await aliceClient.callTool(
      { name: "decide", arguments: { question: "[progress] Ship it?", categories: ["Ship", "Wait"], mode: "majority_voting" } },
      { onprogress: ({ progress: count, message }) => void progress.push({ progress: count, message }) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress).toEqual([
      { progress: 1, message: "openai: Ship" },
      { progress: 2, message: "gemini: Ship" },
      // Two of three agree: early quorum (on by default, as on /v1) does not wait for the third.
      { progress: 3, message: "claude: skipped" },
    ]);
  });

  it("lists the panel's models, the four modes and the caller's presets, and decides with a preset's panel", async () => {
    await savePreset(stack.url, alice.tokens.access_token, "pair", { ensemble_mode: "weighted_voting", models: ["openai", "gemini"], early_quorum: false });
    const result = await aliceClient.callTool({ name: "list_models", arguments: {} });
    const list = result.structuredContent as { models: { id: string; in_default_panel: boolean }[]; modes: { id: string }[]; presets: string[] };
    expect(list.modes.map((mode) => mode.id)).toEqual([...ENSEMBLE_MODES]);
    expect(list.models.filter((model) => model.in_default_panel).map((model) => model.id).sort()).toEqual(["claude", "gemini", "openai"]);
    expect(list.presets).toEqual(["pair"]);
    const bobs = (await bobClient.callTool({ name: "list_models", arguments: {} })).structuredContent as { presets: string[] };
    expect(bobs.presets).toEqual([]);

    const decided = await aliceClient.callTool({ name: "decide", arguments: { question: "Pick a colour for the release notes", categories: ["Blue", "Green"], preset: "pair" } });
    const decision = SmartDecisionExtensionSchema.parse(decided.structuredContent);
    expect(decision.vote_details.map((vote) => vote.llm_name).sort()).toEqual(["gemini", "openai"]);
    const unknown = await bobClient.callTool({ name: "decide", arguments: { question: "Pick a colour", categories: ["Blue", "Green"], preset: "pair" } });
    expect(unknown.isError).toBe(true);
  });

  it("answers a GET (a standalone stream) 405 Allow: POST, as a stateless Streamable HTTP server does", async () => {
    const response = await fetch(`${stack.url}/mcp`, { headers: { accept: "text/event-stream", authorization: `Bearer ${aliceKey}` } });
    expect([response.status, response.headers.get("allow")]).toEqual([405, "POST"]);
  });

  it("refuses a client without a key, or with an unknown one, at connection", async () => {
    const refused = await connect("sd_live_not-a-key").then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(refused?.message).toContain(API_KEY_MESSAGES.invalidKey);
    const response = await fetch(`${stack.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect([response.status, await response.json()]).toEqual([401, { detail: API_KEY_MESSAGES.missingKey }]);
  });
});

/** The MCP Inspector's command line (`mcp-inspector --cli`), the tool MCP server authors check a server with. */
describe("the MCP Inspector's CLI against /mcp", () => {
  const inspect = async (...args: string[]) => {
    const { stdout } = await promisify(execFile)("npx", ["--no-install", "mcp-inspector", "--cli", `${stack.url}/mcp`, "--header", `Authorization: Bearer ${aliceKey}`, ...args]);
    return JSON.parse(stdout) as Record<string, unknown>;
  };

  it("lists the three tools and calls decide", async () => {
    const listed = (await inspect("--method", "tools/list")) as { tools: { name: string }[] };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(["decide", "get_decision", "list_models"]);
    const called = (await inspect("--method", "tools/call", "--tool-name", "decide", "--tool-arg", "question=Tea or coffee?", 'categories=["Tea","Coffee"]')) as {
      structuredContent: unknown;
      isError?: boolean;
    };
    expect(called.isError).toBeFalsy();
    expect(["Tea", "Coffee"]).toContain(SmartDecisionExtensionSchema.parse(called.structuredContent).ensemble_decision);
  });
});
