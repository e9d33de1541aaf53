import type { EmulatorUsage } from "./rules";
import { BadRequest, MALFORMED_TEXT, asArray, isObject, replyUsage, type ParsedCall, type VendorWire } from "./wire";

/** Gemini generateContent (POST /v1beta/models/{model}:generateContent), as @google/generative-ai sends and reads it. */
export const geminiWire: VendorWire = {
  vendor: "gemini",

  parse(body, pathModel) {
    if (!isObject(body) || !Array.isArray(body["contents"]) || pathModel === null) {
      throw new BadRequest("'contents' is required");
    }
    const texts: string[] = [];
    let imageCount = 0;
    for (const content of body["contents"]) {
      // Gemini treats a content without a role as the user's.
      if (!isObject(content) || (content["role"] !== undefined && content["role"] !== "user")) continue;
      for (const part of asArray(content["parts"])) {
        if (!isObject(part)) continue;
        if (typeof part["text"] === "string") texts.push(part["text"]);
        if (isObject(part["inlineData"])) imageCount += 1;
      }
    }
    const config = isObject(body["generationConfig"]) ? body["generationConfig"] : {};
    return { model: pathModel, promptText: texts.join("\n"), imageCount, schema: config["responseSchema"] ?? null, toolName: null };
  },

  success(call, output, _id, usage) {
    return response(call, call.schema === null ? String(output) : JSON.stringify(output), usage);
  },

  malformed(call, _id, usage) {
    return response(call, MALFORMED_TEXT, usage);
  },

  error(status, message, retryAfterS) {
    // Gemini reports back-off in a google.rpc.RetryInfo detail; its SDK exposes details but not headers.
    const details = retryAfterS === undefined ? undefined : [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${retryAfterS}s` }];
    return { error: { code: status, message, status: errorStatus(status), ...(details ? { details } : {}) } };
  },
};

function response(call: ParsedCall, text: string, override: EmulatorUsage | undefined): unknown {
  const usage = replyUsage(call, text, override);
  return {
    candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
    // Gemini reports thinking apart from the answer's tokens, and leaves out a count that is 0.
    ...(usage && {
      usageMetadata: {
        promptTokenCount: usage.input,
        candidatesTokenCount: usage.output - usage.reasoning,
        ...(usage.reasoning > 0 && { thoughtsTokenCount: usage.reasoning }),
        totalTokenCount: usage.input + usage.output,
      },
    }),
    modelVersion: call.model,
  };
}

function errorStatus(status: number): string {
  const statuses: Record<number, string> = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    429: "RESOURCE_EXHAUSTED",
    500: "INTERNAL",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
  };
  return statuses[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION");
}
