import type { Request, RequestHandler, Response, Router } from "express";
import { NodeStreamableHTTPServerTransport } from "@modelcontextprotocol/node";
import { McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import type { VoteEvent } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { StoredApiKey } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { currentApiKey } from "../api-keys/middleware";
import { EndpointRouter } from "../http/endpoint-router";
import { toHttpError } from "../http/errors";
import type { ApiDecisionInput } from "../use-cases/decisions";
import {
  DecideInputSchema,
  decisionSummary,
  DecisionOutputSchema,
  GetDecisionInputSchema,
  GetDecisionOutputSchema,
  ModelListOutputSchema,
  type McpToolUseCases,
} from "../use-cases/mcp-tools";
import { admission } from "./decisions";
import { bearerApiKey } from "./openai-compatible";
import type { DecisionUseCases } from "../use-cases/decisions";

/** The product's version as MCP clients see it. */
const SERVER_INFO = { name: "smart-decision", version: "0.1.0" };

/**
 * A tool's failure as an MCP tool error (`isError`), worded as the REST API words it, so the
 * calling agent reads why and can fix its call; unexpected errors are logged and hidden.
 */
function toolError(error: unknown, logger: Logger): CallToolResult {
  return { isError: true, content: [{ type: "text", text: toHttpError(error, logger).detail }] };
}

/** One key owner's MCP server: the tools act as that owner, with their key's limits and history. */
function serverFor(tools: McpToolUseCases, requester: ApiDecisionInput["requester"], withinSpendLimit: () => Promise<void>, logger: Logger): McpServer {
  const server = new McpServer(SERVER_INFO, {
    instructions: "Ask several AI models one question with a fixed list of allowed answers; they vote and the votes are combined into one decision.",
  });
  server.registerTool(
    "decide",
    {
      title: "Decide by a vote of several models",
      description: "Asks every model of the panel the question, allowing only the given categories, and combines their votes into one decision (with each vote, its reason, the consensus and the cost).",
      inputSchema: DecideInputSchema,
      outputSchema: DecisionOutputSchema,
    },
    async (input, ctx) => {
      try {
        // Each settled vote is a progress notification when the client asked for them with a progress token.
        const progressToken = ctx.mcpReq._meta?.progressToken;
        let settled = 0;
        const onVote =
          progressToken === undefined
            ? undefined
            : (event: VoteEvent) => {
                settled++;
                const message = `${event.provider}: ${event.response ?? event.status}`;
                void ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken, progress: settled, message } }).catch(() => undefined);
              };
        // Only decide spends: reading decisions and the model list stay open past the key's spend limit, as on /v1.
        await withinSpendLimit();
        const decision = await tools.decide(input, requester, onVote, ctx.mcpReq.signal);
        return { content: [{ type: "text", text: decisionSummary(decision) }], structuredContent: decision };
      } catch (error) {
        return toolError(error, logger);
      }
    },
  );
  server.registerTool(
    "get_decision",
    {
      title: "Get a decision",
      description: "A decision made with this API key's owner's keys: pending while the models vote, then complete with its result.",
      inputSchema: GetDecisionInputSchema,
      outputSchema: GetDecisionOutputSchema,
      annotations: { readOnlyHint: true },
    },
    async ({ decision_id }) => {
      try {
        const status = await tools.getDecision(decision_id, requester.user.id);
        const text = status.status === "complete" ? decisionSummary(status.result) : `Decision ${decision_id} is still being voted on.`;
        return { content: [{ type: "text", text }], structuredContent: status };
      } catch (error) {
        return toolError(error, logger);
      }
    },
  );
  server.registerTool(
    "list_models",
    {
      title: "List the models and modes",
      description: "The models a decide call's panel may name (and which are in the default panel), the ensemble modes, and your panel presets.",
      outputSchema: ModelListOutputSchema,
      annotations: { readOnlyHint: true },
    },
    async () => {
      const list = await tools.models(requester.user.id);
      return { content: [{ type: "text", text: JSON.stringify(list) }], structuredContent: list };
    },
  );
  return server;
}

export interface McpRouteDeps {
  tools: McpToolUseCases;
  decisions: DecisionUseCases;
  keyAccess: RequestHandler;
  /** Refuses a decision once the key's monthly spend limit is reached. */
  assertWithinSpendLimit(key: StoredApiKey): Promise<void>;
  byteLimit: RequestHandler;
  imageBody: RequestHandler;
  logger: Logger;
}

/**
 * `/mcp`: the Model Context Protocol over Streamable HTTP, stateless (each POST is answered on its
 * own, so any gateway replica can take any request), authenticated by an API key.
 */
export function mcpRoutes({ tools, decisions, keyAccess, assertWithinSpendLimit, byteLimit, imageBody, logger }: McpRouteDeps): Router {
  const handler = async ({ req, res }: { req: Request; res: Response }) => {
    const key = currentApiKey(res);
    const requester = { ip: req.ip ?? null, user: { id: key.user_id, email: key.created_by }, apiKeyId: key.id };
    const server = serverFor(tools, requester, () => assertWithinSpendLimit(key), logger);
    const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  };
  const router = new EndpointRouter("", { "api-key": keyAccess }).mount(ENDPOINTS.mcp, {
    before: [bearerApiKey, admission(decisions), byteLimit],
    bodyReader: imageBody,
    rawBody: true,
    handler,
  }).router;
  // A stateless server offers no standalone stream: any other method is a 405, as the transport
  // specifies. A client that gets another answer to its GET (a 404) may give up on the server's
  // tools, and an open stream would hold a connection for nothing.
  router.all("/mcp", (_req, res) => {
    res.status(405).set("Allow", "POST").json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this server is stateless; send requests with POST." }, id: null });
  });
  return router;
}
