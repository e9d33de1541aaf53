import { AsyncLocalStorage } from "node:async_hooks";
import { Client, ProtocolError as RemoteProtocolError, SdkHttpError, StreamableHTTPClientTransport, type CallToolResult, type ListToolsResult } from "@modelcontextprotocol/client";
import { ProtocolError, ProtocolErrorCode, Server, type ServerContext, type Transport } from "@modelcontextprotocol/server";

/** Where the bridge forwards to, and as whom. */
export interface BridgeConfig {
  /** The Smart Decision server's `/mcp` endpoint. */
  endpoint: URL;
  apiKey: string;
  /** The bridge's own version, as MCP clients see it. */
  version: string;
  /** One line for the log on stderr (stdout carries the protocol). */
  log(line: string): void;
  /** Called once the local session has ended (the client closed stdin) and the remote connection is closed. */
  onClosed?(): void;
}

export const DEFAULT_URL = "http://localhost:3000";

/** The configuration the bridge reads from its environment, or why it cannot start. */
export function configFromEnv(env: NodeJS.ProcessEnv): { apiKey: string; endpoint: URL } | { error: string } {
  const apiKey = env.SMART_DECISION_API_KEY?.trim();
  if (!apiKey) {
    return { error: "SMART_DECISION_API_KEY is not set: create an API key in Smart Decision (Settings, API keys) and set it in this MCP server's env." };
  }
  const base = env.SMART_DECISION_URL?.trim() || DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    return { error: `SMART_DECISION_URL is not a URL: ${base}` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { error: `SMART_DECISION_URL must be an http(s) URL: ${base}` };
  // The server's address, as the product documents it; the MCP endpoint is its /mcp (a trailing slash or path prefix kept).
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/mcp`;
  return { apiKey, endpoint: url };
}

/**
 * A decision waits up to the server's DECISION_TIMEOUT_MS (90 s by default), longer than the SDK's
 * 60 s default: the caller's own timeout and cancellation (forwarded) decide how long a call may take.
 */
const CALL_TIMEOUT_MS = 10 * 60_000;

/**
 * The signal of the local request a remote request is made for. The remote server is stateless: a
 * `notifications/cancelled` reaches a fresh server instance that never saw the call, so a call is
 * cancelled by closing its HTTP request, which the server answers by cancelling the decision. The
 * SDK's client only closes it itself on the 2026-07-28 protocol, so the bridge's fetch does it.
 */
const callSignal = new AsyncLocalStorage<AbortSignal>();

const fetchWithCallSignal: typeof fetch = (input, init) => {
  const signal = callSignal.getStore();
  if (!signal) return fetch(input, init);
  return fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
};

/**
 * The remote Smart Decision MCP server, connected on first use: the desktop client can start the
 * bridge while the server is down, and a failed connection is tried again on the next request. Once
 * connected it stays: the server is stateless (no session to lose), so a failed request says nothing
 * about the next one, and other calls may be running on the same client.
 */
class Remote {
  private connection: Promise<Client> | undefined;

  constructor(private readonly config: BridgeConfig) {}

  client(): Promise<Client> {
    this.connection ??= this.connect().catch((error: unknown) => {
      this.connection = undefined;
      throw error;
    });
    return this.connection;
  }

  private async connect(): Promise<Client> {
    const client = new Client({ name: "smart-decision-mcp", version: this.config.version });
    const transport = new StreamableHTTPClientTransport(this.config.endpoint, {
      requestInit: { headers: { authorization: `Bearer ${this.config.apiKey}` } },
      fetch: fetchWithCallSignal,
    });
    await client.connect(transport);
    this.config.log(`connected to ${this.config.endpoint.href}`);
    return client;
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    await connection?.then((client) => client.close()).catch(() => undefined);
  }
}

/**
 * Why a request to the remote server failed, in words for the person reading the tool error: which
 * URL, and the server's own text when it answered (a refused key is its 401 "Invalid API key").
 */
function describeFailure(error: unknown, endpoint: URL): string {
  if (error instanceof SdkHttpError) {
    const said = serverDetail(error.message);
    if (error.status === 401 || error.status === 403) {
      return `Smart Decision at ${endpoint.href} refused the API key (${error.status}): ${said} Check SMART_DECISION_API_KEY.`;
    }
    return `Smart Decision at ${endpoint.href} answered ${error.status}: ${said}`;
  }
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `Could not reach Smart Decision at ${endpoint.href}: ${error instanceof Error ? error.message : String(error)}${cause}`;
}

/** The product's error body is `{"detail": "..."}`; the SDK puts the body in its message after its own words. */
function serverDetail(message: string): string {
  const body = message.slice(message.indexOf("{"));
  try {
    const detail = (JSON.parse(body) as { detail?: unknown }).detail;
    if (typeof detail === "string") return detail;
  } catch {
    // Not the product's JSON: the SDK's message as it is.
  }
  return message;
}

/** The remote's JSON-RPC error (an unknown tool, invalid arguments) as the same error of the local server. */
function asLocalProtocolError(error: unknown): ProtocolError | undefined {
  return error instanceof RemoteProtocolError ? new ProtocolError(error.code, error.message, error.data) : undefined;
}

/**
 * A stdio-side MCP server whose tools are the remote server's: the list exactly as the remote gives
 * it (schemas included, nothing re-declared here) and each call forwarded with its arguments, its
 * progress and its cancellation.
 */
export function createBridge(config: BridgeConfig): { server: Server; connect(transport: Transport): Promise<void>; close(): Promise<void> } {
  const remote = new Remote(config);
  const server = new Server({ name: "smart-decision", version: config.version }, { capabilities: { tools: {} } });
  // Output schemas by tool name, from the last list, for the SDK's projection of call results.
  const outputSchemas = new Map<string, Record<string, unknown> | undefined>();

  server.setRequestHandler("tools/list", async (request, ctx): Promise<ListToolsResult> => {
    try {
      const client = await remote.client();
      const listed = await client.listTools(request.params?.cursor === undefined ? undefined : { cursor: request.params.cursor }, { signal: ctx.mcpReq.signal });
      for (const tool of listed.tools) outputSchemas.set(tool.name, tool.outputSchema);
      return listed;
    } catch (error) {
      const protocolError = asLocalProtocolError(error);
      if (protocolError) throw protocolError;
      if (ctx.mcpReq.signal.aborted) throw error;
      const message = describeFailure(error, config.endpoint);
      config.log(message);
      throw new ProtocolError(ProtocolErrorCode.InternalError, message);
    }
  });

  server.setRequestHandler("tools/call", async (request, ctx): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    try {
      const client = await remote.client();
      const result = await callSignal.run(ctx.mcpReq.signal, () =>
        client.callTool({ name, arguments: args }, { signal: ctx.mcpReq.signal, timeout: CALL_TIMEOUT_MS, resetTimeoutOnProgress: true, onprogress: progressForwarder(ctx) }),
      );
      return server.projectCallToolResult(result, outputSchemas.get(name));
    } catch (error) {
      const protocolError = asLocalProtocolError(error);
      if (protocolError) throw protocolError;
      // A cancelled call is not answered: the caller no longer waits for it.
      if (ctx.mcpReq.signal.aborted) throw error;
      const message = describeFailure(error, config.endpoint);
      config.log(`${name}: ${message}`);
      return { isError: true, content: [{ type: "text", text: message }] };
    }
  });

  server.onclose = () => void remote.close().finally(() => config.onClosed?.());
  server.onerror = (error) => config.log(`protocol error: ${error.message}`);
  return { server, connect: (transport) => server.connect(transport), close: () => server.close() };
}

/** The remote's progress as the local caller's, under the caller's token, when the caller asked for progress. */
function progressForwarder(ctx: ServerContext) {
  const progressToken = ctx.mcpReq._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  return ({ progress, total, message }: { progress: number; total?: number; message?: string }) => {
    void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress, total, message } }).catch(() => undefined);
  };
}
