import { z } from "zod";
import { API_KEY_HEADER } from "../index";
import { exampleErrors } from "./examples";
import { busy, error, json, one, RETRY_AFTER_HEADERS } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- the MCP server (/mcp)

const JsonRpcMessageSchema = z.looseObject({
  jsonrpc: z.literal("2.0"),
  id: z.union([z.string(), z.number()]).optional(),
  method: z.string().optional(),
  params: z.record(z.string(), z.unknown()).optional(),
});

/** What the MCP transport itself answers to a request it cannot take (before any tool runs). */
export const JsonRpcErrorSchema = z.object({
  jsonrpc: z.literal("2.0"),
  error: z.object({ code: z.number().int(), message: z.string() }),
  id: z.union([z.string(), z.number()]).nullable(),
});
const transportError = (description: string, message: string) => ({
  description,
  body: json(JsonRpcErrorSchema, one(description, { jsonrpc: "2.0", error: { code: -32000, message }, id: null })),
});

export const mcpEndpoints = [
  defineEndpoint({
    method: "post",
    path: "/mcp",
    tag: "mcp",
    operationId: "mcp",
    summary: "Model Context Protocol server (Streamable HTTP)",
    description: [
      "An MCP server for agents (Claude Desktop, Cursor, VS Code, agent frameworks), over the Streamable HTTP transport, stateless: point an MCP client at this URL with an API key as `Authorization: Bearer <key>` (or " +
        API_KEY_HEADER +
        ").",
      "Tools: `decide` {question, categories, mode?, panel?, images?} makes a decision and answers it as `structuredContent` (votes, reasons, consensus, cost) with a one-line text; `get_decision` {decision_id}; `list_models` (the panel's models and the modes).",
      "A tool's failure is an MCP tool error (`isError`) with the REST API's text. The body is a JSON-RPC message; send `Accept: application/json, text/event-stream`.",
      "The server is stateless, so it offers no standalone stream: GET and DELETE on /mcp answer 405 with `Allow: POST`, as the transport specifies.",
    ].join("\n"),
    access: "api-key",
    body: json(JsonRpcMessageSchema, {
      listTools: { summary: "List the tools", value: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} } },
      decide: {
        summary: "Make a decision",
        value: { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "decide", arguments: { question: "Ship the release on Friday?", categories: ["Yes", "No"] } } },
      },
    }),
    responses: {
      200: { description: "The JSON-RPC answer, as JSON or as a Server-Sent Events stream (progress, then the result)." },
      202: { description: "A notification or response from the client was accepted." },
      400: error("The body is not a JSON-RPC message this server understands.", one("Not JSON", { detail: "The request body is not valid JSON." })),
      401: error(`No API key (Authorization: Bearer <key> or ${API_KEY_HEADER}), or one that is unknown, deleted or switched off.`, {
        missingKey: { summary: "No key", value: exampleErrors.missingKey },
        invalidKey: { summary: "Unknown or inactive key", value: exampleErrors.invalidKey },
      }),
      406: transportError("The Accept header does not allow both application/json and text/event-stream.", "Not Acceptable: Client must accept both application/json and text/event-stream"),
      415: transportError("The body is not application/json.", "Unsupported Media Type: Content-Type must be application/json"),
      429: error("Too many requests for this key, or its monthly quota is used up.", { rateLimited: { summary: "Rate limited", value: exampleErrors.keyRateLimited } }, RETRY_AFTER_HEADERS),
      503: busy,
    },
  }),
] as const;
