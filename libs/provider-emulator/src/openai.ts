import type { EmulatorUsage } from "./rules";
import { BadRequest, userContent, MALFORMED_TEXT, isObject, replyUsage, type ParsedCall, type VendorWire } from "./wire";

/** OpenAI chat completions (POST /v1/chat/completions), as the openai SDK sends and reads it. */
export const openaiWire: VendorWire = {
  vendor: "openai",

  parse(body) {
    if (!isObject(body) || typeof body["model"] !== "string" || !Array.isArray(body["messages"])) {
      throw new BadRequest("'model' and 'messages' are required");
    }
    const { promptText, imageCount } = userContent(body["messages"], "image_url");
    const format = isObject(body["response_format"]) ? body["response_format"] : {};
    const jsonSchema = format["type"] === "json_schema" && isObject(format["json_schema"]) ? format["json_schema"] : null;
    // JSON mode (DeepSeek and other servers without json_schema): the schema is in the system prompt.
    const schema = format["type"] === "json_object" ? jsonModeSchema(body["messages"]) : (jsonSchema?.["schema"] ?? null);
    return { model: body["model"], promptText, imageCount, schema, toolName: null };
  },

  success(call, output, id, usage) {
    const content = call.schema === null ? String(output) : JSON.stringify(output);
    return completion(call, content, id, usage);
  },

  malformed(call, id, usage) {
    return completion(call, MALFORMED_TEXT, id, usage);
  },

  error(status, message) {
    return { error: { message, type: errorType(status), param: null, code: errorCode(status) } };
  },
};

/** The marker libs/providers ends a JSON-mode system prompt with, before the schema's JSON. */
const JSON_MODE_SCHEMA_MARKER = "Reply with one JSON object and nothing else, following this JSON Schema:\n";

/**
 * The schema a JSON-mode request states after the marker in its system message. A real model
 * follows whatever JSON the prompt describes; without a schema it answers free text, which
 * the client then fails to parse, as a confused model's would be.
 */
function jsonModeSchema(messages: unknown[]): unknown {
  for (const message of messages) {
    if (!isObject(message) || message["role"] !== "system" || typeof message["content"] !== "string") continue;
    const at = message["content"].lastIndexOf(JSON_MODE_SCHEMA_MARKER);
    if (at < 0) continue;
    try {
      return JSON.parse(message["content"].slice(at + JSON_MODE_SCHEMA_MARKER.length)) as unknown;
    } catch {
      return null;
    }
  }
  return null;
}

function completion(call: ParsedCall, content: string, id: string, override: EmulatorUsage | undefined): unknown {
  const usage = replyUsage(call, content, override);
  return {
    id: `chatcmpl-${id}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: call.model,
    choices: [{ index: 0, message: { role: "assistant", content, refusal: null, annotations: [] }, logprobs: null, finish_reason: "stop" }],
    // Reasoning tokens are counted within completion_tokens and itemised in its details.
    ...(usage && {
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
        completion_tokens_details: { reasoning_tokens: usage.reasoning },
      },
    }),
    system_fingerprint: "fp_emulator",
  };
}

function errorType(status: number): string {
  if (status === 429) return "requests";
  if (status >= 500) return "server_error";
  return "invalid_request_error";
}

function errorCode(status: number): string | null {
  if (status === 401) return "invalid_api_key";
  if (status === 429) return "rate_limit_exceeded";
  return null;
}
