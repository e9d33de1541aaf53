import type { EmulatorUsage } from "./rules";
import { BadRequest, userContent, asArray, isObject, replyUsage, type ParsedCall, type VendorWire } from "./wire";

/** Anthropic messages (POST /v1/messages) with forced tool use, as @anthropic-ai/sdk sends and reads it. */
export const anthropicWire: VendorWire = {
  vendor: "anthropic",

  parse(body) {
    if (!isObject(body) || typeof body["model"] !== "string" || !Array.isArray(body["messages"]) || typeof body["max_tokens"] !== "number") {
      throw new BadRequest("'model', 'messages' and 'max_tokens' are required");
    }
    const { promptText, imageCount } = userContent(body["messages"], "image");
    // The forced tool (tool_choice {type: "tool", name}) decides the schema; else the first tool.
    const tools = asArray(body["tools"]).filter(isObject);
    const choice = body["tool_choice"];
    const forced = isObject(choice) && choice["type"] === "tool" ? choice["name"] : undefined;
    const tool = tools.find((t) => t["name"] === forced) ?? tools[0];
    return {
      model: body["model"],
      promptText,
      imageCount,
      schema: tool?.["input_schema"] ?? null,
      toolName: typeof tool?.["name"] === "string" ? tool["name"] : null,
    };
  },

  success(call, output, id, usage) {
    if (call.toolName === null) return message(call, [{ type: "text", text: String(output) }], "end_turn", id, usage);
    return message(call, [{ type: "tool_use", id: `toolu_${id}`, name: call.toolName, input: output }], "tool_use", id, usage);
  },

  malformed(call, id, usage) {
    // A tool call without the required fields: what a confused model produces under forced tool use.
    if (call.toolName === null) return message(call, [{ type: "text", text: "I am not sure." }], "end_turn", id, usage);
    return message(call, [{ type: "tool_use", id: `toolu_${id}`, name: call.toolName, input: { note: "I am not sure." } }], "tool_use", id, usage);
  },

  error(status, message) {
    return { type: "error", error: { type: errorType(status), message } };
  },
};

function message(call: ParsedCall, content: unknown[], stopReason: string, id: string, override: EmulatorUsage | undefined): unknown {
  // Thinking tokens are within output_tokens, not itemised.
  const usage = replyUsage(call, JSON.stringify(content), override);
  return {
    id: `msg_${id}`,
    type: "message",
    role: "assistant",
    model: call.model,
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    ...(usage && { usage: { input_tokens: usage.input, output_tokens: usage.output } }),
  };
}

function errorType(status: number): string {
  const types: Record<number, string> = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
  };
  return types[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
}
