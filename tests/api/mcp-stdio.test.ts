import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_MESSAGES, ApiKeySchema, HISTORY_MESSAGES, MESSAGES, SmartDecisionExtensionSchema, type AuthResponse } from "@sd/contracts";
import type { EmulatorCall } from "@sd/provider-emulator";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * The stdio bridge (`npx @smart-decision/mcp`, libs/mcp-stdio) as a desktop MCP client runs it: its
 * built dist/bin.js spawned by the MCP SDK's StdioClientTransport with the key and URL in its env,
 * forwarding to a real stack's /mcp.
 */
const emulator = useEmulator();
const stack = useStackWithMail(emulator, { API_KEY_RATE_LIMIT_PER_MINUTE: "1000", MAGIC_LINK_PER_IP_PER_HOUR: "1000" });

const run = promisify(execFile);
const REPO = fileURLToPath(new URL("../..", import.meta.url));
const BIN = fileURLToPath(new URL("../../libs/mcp-stdio/dist/bin.js", import.meta.url));

let aliceKey: string;
let alice: AuthResponse;
const clients: Client[] = [];

beforeAll(async () => {
  // Always built (esbuild takes well under a second), so the test runs the bridge of the current sources.
  await run("npm", ["run", "build", "-w", "@smart-decision/mcp"], { cwd: REPO });
  expect(existsSync(BIN)).toBe(true);
  alice = await stack.signIn();
  const answer = await callApi(stack.url, "/api/api-keys", alice.tokens.access_token, { body: { name: "Claude Desktop" } });
  expect(answer.status, answer.text).toBe(201);
  aliceKey = ApiKeySchema.parse(answer.body).keyvalue!;
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

const bridgeEnv = (env: Record<string, string>) => ({ ...getDefaultEnvironment(), ...env });

/** The bridge spawned over stdio, as Claude Desktop spawns `npx -y @smart-decision/mcp`; its stderr kept for the assertions. */
async function bridge(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN], env: bridgeEnv(env), stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: "sd-desktop-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

const aliceBridge = () => bridge({ SMART_DECISION_API_KEY: aliceKey, SMART_DECISION_URL: stack.url });
const textOf = (result: { content?: unknown }) => (result.content as { type: string; text: string }[])[0]!.text;

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the stdio bridge through the MCP SDK's stdio client", () => {
  it("lists decide, get_decision and list_models exactly as the server's /mcp lists them, schemas included", async () => {
    const { client, stderr } = await aliceBridge();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["decide", "get_decision", "list_models"]);
    const decide = tools.find((tool) => tool.name === "decide")!;
    expect(decide.inputSchema.required).toEqual(["question", "categories"]);
    expect(Object.keys(decide.outputSchema!.properties!)).toEqual(expect.arrayContaining(["decision_id", "ensemble_decision", "vote_details"]));

    const direct = new Client({ name: "sd-test", version: "1.0.0" });
    await direct.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${aliceKey}` } } }));
    expect(tools).toEqual((await direct.listTools()).tools);
    await direct.close();
    // The key never reaches the log.
    expect(stderr()).toContain(`${stack.url}/mcp`);
    expect(stderr()).not.toContain(aliceKey);
  });

  it("decides: a progress notification per vote under the caller's token, then the decision as structured content", async () => {
    emulator.addRules(
      (["openai", "gemini", "anthropic"] as const).map((vendor, i) => ({
        match: { vendor, question_contains: "[stdio]" },
        latency_ms: 100 + i * 150,
        // Split after two votes, so the third is awaited (no early quorum) and decides.
        respond: { kind: "answer" as const, category: vendor === "gemini" ? "Wait" : "Ship", confidence: 0.8, rationale: `${vendor} thinks so.` },
      })),
    );
    const { client } = await aliceBridge();
    const progress: { progress: number; message?: string }[] = [];
    const result = await client.callTool(
      { name: "decide", arguments: { question: "[stdio] Ship the release today?", categories: ["Ship", "Wait"] } },
      { onprogress: ({ progress: count, message }) => void progress.push({ progress: count, message }) },
    );
    expect(result.isError).toBeFalsy();
    expect(progress).toEqual([
      { progress: 1, message: "openai: Ship" },
      { progress: 2, message: "gemini: Wait" },
      { progress: 3, message: "claude: Ship" },
    ]);
    const decision = SmartDecisionExtensionSchema.parse(result.structuredContent);
    expect(decision.ensemble_decision).toBe("Ship");
    expect(decision.vote_details.map((vote) => [vote.llm_name, vote.reason]).sort()).toEqual([
      ["claude", "anthropic thinks so."],
      ["gemini", "gemini thinks so."],
      ["openai", "openai thinks so."],
    ]);
    expect(textOf(result)).toMatch(/^Decision: Ship\. /);
    // Made as the key's owner: in their history, and readable through get_decision.
    const again = await client.callTool({ name: "get_decision", arguments: { decision_id: decision.decision_id } });
    expect(again.structuredContent).toMatchObject({ status: "complete", result: { ensemble_decision: "Ship" } });
    expect((await callApi(stack.url, `/api/decision-history/${decision.decision_id}`, alice.tokens.access_token)).status).toBe(200);
  });

  it("passes the server's tool errors through as tool errors, with its texts", async () => {
    const { client } = await aliceBridge();
    const oneCategory = await client.callTool({ name: "decide", arguments: { question: "Tea?", categories: ["Tea"] } });
    expect([oneCategory.isError, textOf(oneCategory)]).toEqual([true, MESSAGES.categoriesRequired.detail]);
    const unknown = await client.callTool({ name: "get_decision", arguments: { decision_id: "00000000-0000-4000-8000-000000000000" } });
    expect([unknown.isError, textOf(unknown)]).toEqual([true, HISTORY_MESSAGES.notFound]);
  });

  it("answers an unknown tool with the JSON-RPC error the server gives", async () => {
    const rejection = (client: Client) =>
      client.callTool({ name: "no_such_tool", arguments: {} }).then(
        () => null,
        (error: unknown) => error as { code?: number; message: string },
      );
    const { client } = await aliceBridge();
    const direct = new Client({ name: "sd-test", version: "1.0.0" });
    await direct.connect(new StreamableHTTPClientTransport(new URL(`${stack.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${aliceKey}` } } }));
    const [viaBridge, fromServer] = await Promise.all([rejection(client), rejection(direct)]);
    await direct.close();
    expect(fromServer).not.toBeNull();
    expect([viaBridge?.code, viaBridge?.message]).toEqual([fromServer!.code, fromServer!.message]);
  });

  it("forwards a cancelled decide: the models still thinking are dropped at once", async () => {
    emulator.addRules([
      { match: { vendor: "openai", question_contains: "[stdio-cancel]" }, respond: { kind: "answer", category: "Ship", confidence: 0.9 } },
      { match: { vendor: "gemini", question_contains: "[stdio-cancel]" }, respond: { kind: "hang" } },
      { match: { vendor: "anthropic", question_contains: "[stdio-cancel]" }, respond: { kind: "hang" } },
    ]);
    const { client } = await aliceBridge();
    const controller = new AbortController();
    const call = client.callTool(
      { name: "decide", arguments: { question: "[stdio-cancel] Ship it?", categories: ["Ship", "Wait"] } },
      // The first vote is in and the other two models hang: the desktop client gives up.
      { signal: controller.signal, onprogress: () => controller.abort() },
    );
    await expect(call).rejects.toThrow();
    const abortedAt = Date.now();
    const hung = (vendor: string) => (c: EmulatorCall) => c.prompt_text.includes("[stdio-cancel]") && c.vendor === vendor;
    const ended = await Promise.all([emulator.waitForCallEnd(hung("gemini"), 5000), emulator.waitForCallEnd(hung("anthropic"), 5000)]);
    expect(ended.map((c) => c.outcome)).toEqual(["dropped", "dropped"]);
    for (const c of ended) expect(c.ended_at! - abortedAt).toBeLessThan(1000);
  });

  it("says the key was refused, naming the server, when the key is unknown", async () => {
    const { client, stderr } = await bridge({ SMART_DECISION_API_KEY: "sd_live_not-a-key", SMART_DECISION_URL: stack.url });
    const listed = await client.listTools().then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(listed?.message).toContain(`Smart Decision at ${stack.url}/mcp refused the API key (401): ${API_KEY_MESSAGES.invalidKey}`);
    expect(listed?.message).toContain(API_KEY_MESSAGES.invalidKey);
    const called = await client.callTool({ name: "list_models", arguments: {} });
    expect(called.isError).toBe(true);
    expect(textOf(called)).toContain(API_KEY_MESSAGES.invalidKey);
    expect(stderr()).not.toContain("sd_live_not-a-key");
  });

  it("answers a call as a tool error naming the URL when the server cannot be reached", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { client } = await bridge({ SMART_DECISION_API_KEY: aliceKey, SMART_DECISION_URL: url });
    const called = await client.callTool({ name: "decide", arguments: { question: "Tea or coffee?", categories: ["Tea", "Coffee"] } });
    expect(called.isError).toBe(true);
    expect(textOf(called)).toContain(`Could not reach Smart Decision at ${url}/mcp`);
  });

  it("exits 1 with a message on stderr when SMART_DECISION_API_KEY is not set", async () => {
    const exited = await run(process.execPath, [BIN], { env: bridgeEnv({ SMART_DECISION_URL: stack.url }) }).then(
      () => null,
      (error: unknown) => error as { code: number; stderr: string; stdout: string },
    );
    expect(exited?.code).toBe(1);
    expect(exited?.stderr).toContain("SMART_DECISION_API_KEY is not set");
    expect(exited?.stdout).toBe("");
  });
});

/** The MCP Inspector's command line launching the bridge over stdio, as a server author checks it. */
describe("the MCP Inspector's CLI against the stdio bridge", () => {
  it("lists the three tools", async () => {
    const { stdout } = await run("npx", [
      "--no-install",
      "mcp-inspector",
      "--cli",
      process.execPath,
      BIN,
      "-e",
      `SMART_DECISION_API_KEY=${aliceKey}`,
      "-e",
      `SMART_DECISION_URL=${stack.url}`,
      "--method",
      "tools/list",
    ]);
    const listed = JSON.parse(stdout) as { tools: { name: string; outputSchema?: { type: string } }[] };
    expect(listed.tools.map((tool) => tool.name).sort()).toEqual(["decide", "get_decision", "list_models"]);
    expect(listed.tools.every((tool) => tool.outputSchema?.type === "object")).toBe(true);
  });
});
