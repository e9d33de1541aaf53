import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { type LoadClient, measurePair, type Answer, type PhaseRecord } from "./http-load";
import { CATEGORIES, question, shortly } from "./requests";

/** The concurrency the adapters' rows are measured at. */
export const ADAPTER_CONCURRENCY = 10;

export interface AdapterResult {
  /** /v1/ensemble and /v1/chat/completions on the same kind of decision, interleaved. */
  ensembleForChat: PhaseRecord;
  chat: PhaseRecord;
  /** /v1/ensemble and the MCP `decide` tool, interleaved. */
  ensembleForMcp: PhaseRecord;
  mcp: PhaseRecord;
}

function answered(answer: Answer, what: string): Record<string, unknown> {
  if (answer.status !== 200) throw new Error(`${what} answered ${answer.status}: ${shortly(answer.body)}`);
  return answer.body as Record<string, unknown>;
}

/**
 * What the OpenAI-compatible route and the MCP server add to a decision: each interleaved with
 * `/v1/ensemble` (early quorum at its default on all three), through the same API key.
 */
export async function benchAdapters(url: string, client: LoadClient, keyed: Record<string, string>, count: number, rampMs: number): Promise<AdapterResult> {
  const ensemble = async (i: number) => void answered(await client.send("POST", "/v1/ensemble", { prompt: question("adapters", i), valid_responses: CATEGORIES }, keyed), "/v1/ensemble");
  const chat = async (i: number) => {
    const body = answered(
      await client.send(
        "POST",
        "/v1/chat/completions",
        {
          model: "smart-decision",
          messages: [{ role: "user", content: question("chat", i) }],
          response_format: { type: "json_schema", json_schema: { name: "decision", schema: { type: "string", enum: CATEGORIES } } },
        },
        keyed,
      ),
      "/v1/chat/completions",
    );
    if ((body as { object?: unknown }).object !== "chat.completion") throw new Error(`chat completion ${i}: ${shortly(body)}`);
  };
  const mcpClient = new Client({ name: "bench", version: "1.0.0" });
  await mcpClient.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: keyed } }));
  const mcp = async (i: number) => {
    const result = await mcpClient.callTool({ name: "decide", arguments: { question: question("mcp", i), categories: CATEGORIES } });
    if (result.isError) throw new Error(`MCP decide ${i}: ${JSON.stringify(result.content)}`);
  };
  try {
    for (let i = 0; i < ADAPTER_CONCURRENCY; i++) await Promise.all([ensemble(-i - 1), chat(-i - 1), mcp(-i - 1)]);
    const [ensembleForChat, chatRun] = await measurePair(count, ADAPTER_CONCURRENCY, ensemble, chat, rampMs);
    const [ensembleForMcp, mcpRun] = await measurePair(count, ADAPTER_CONCURRENCY, ensemble, mcp, rampMs);
    return { ensembleForChat, chat: chatRun, ensembleForMcp, mcp: mcpRun };
  } finally {
    await mcpClient.close();
  }
}
