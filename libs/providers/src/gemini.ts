import {
  GoogleGenerativeAI,
  GoogleGenerativeAIAbortError,
  GoogleGenerativeAIError,
  GoogleGenerativeAIFetchError,
  GoogleGenerativeAIResponseError,
  SchemaType,
  type ErrorDetails,
  type GenerateContentResult,
  type Part,
  type Schema,
  type UsageMetadata,
} from "@google/generative-ai";
import type { ProviderConfig, TokenUsage } from "@sd/contracts";
import { StructuredOutputProvider, type StructuredReply } from "./base";
import { ProviderError, errorFromStatus, timeoutError } from "./errors";
import type { JsonSchema, StructuredRequest } from "./prompt";
import { routeGlobalFetchThroughSharedPool } from "./transport";
import { tokenUsage } from "./usage";

/** Gemini generateContent with responseMimeType application/json and a responseSchema carrying the enum. */
export class GeminiProvider extends StructuredOutputProvider {
  readonly #client: GoogleGenerativeAI;

  constructor(config: ProviderConfig) {
    super(config);
    // The SDK calls the global fetch and takes no other: point that at the shared keep-alive pool.
    routeGlobalFetchThroughSharedPool();
    this.#client = new GoogleGenerativeAI(config.apiKey);
  }

  protected async complete(request: StructuredRequest, signal: AbortSignal | undefined): Promise<StructuredReply> {
    const model = this.#client.getGenerativeModel(
      {
        model: this.config.model,
        systemInstruction: request.system,
        generationConfig: { responseMimeType: "application/json", responseSchema: toGeminiSchema(request.schema) },
      },
      { baseUrl: this.config.baseUrl ?? undefined },
    );
    const parts: Part[] = [{ text: request.text }, ...request.images.map((image): Part => ({ inlineData: { mimeType: image.mediaType, data: image.data } }))];
    // Our own deadline instead of requestOptions.timeout: the SDK never clears that timer, so every
    // call would keep the process alive for timeoutMs. AbortSignal.timeout's timer is unref'd.
    const deadline = AbortSignal.timeout(this.config.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    let result: GenerateContentResult;
    try {
      // The SDK has no retries of its own, so this is one HTTP attempt.
      result = await model.generateContent({ contents: [{ role: "user", parts }] }, { signal: combined });
    } catch (error) {
      throw this.#mapError(error, signal);
    }
    const usage = geminiUsage(result.response.usageMetadata);
    let raw: string;
    try {
      raw = result.response.text();
    } catch (error) {
      // A blocked answer still used (and billed) the prompt's tokens.
      throw this.#mapError(error, signal).withUsage(usage);
    }
    // modelVersion is in the wire response but not in the SDK's types.
    const reported = (result.response as { modelVersion?: unknown }).modelVersion;
    return { raw, model: typeof reported === "string" ? reported : null, usage };
  }

  #mapError(error: unknown, signal: AbortSignal | undefined): ProviderError {
    if (error instanceof ProviderError) return error;
    if (error instanceof GoogleGenerativeAIFetchError && typeof error.status === "number") {
      // The SDK drops response headers; Gemini states the back-off in a RetryInfo detail instead.
      // Keep the API's own message: drop the SDK's "[GoogleGenerativeAI Error]: Error fetching from <url>: [500 ...]" prefix.
      const message = error.message.replace(/^(?:\[GoogleGenerativeAI Error\]: )?Error fetching from \S+: (?:\[[^\]]*\] ?)?/, "") || error.statusText || error.message;
      return errorFromStatus("Gemini", error.status, message, retryDelayMs(error.errorDetails), error);
    }
    // The SDK wraps fetch aborts; an abort while reading the body escapes as a bare DOMException.
    if (error instanceof GoogleGenerativeAIAbortError || (error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError"))) {
      return timeoutError("Gemini", this.config.timeoutMs, signal?.aborted ?? false, error);
    }
    if (error instanceof GoogleGenerativeAIResponseError) {
      // text() throws it for a blocked prompt or candidate: retrying gives the same block.
      return new ProviderError("malformed", `Gemini gave no usable answer: ${error.message}`, { cause: error });
    }
    if (error instanceof GoogleGenerativeAIError) {
      // Everything else the SDK raises before any response is a failed fetch ("Error fetching from ...").
      return new ProviderError("network", `Gemini connection failed: ${error.message}`, { cause: error });
    }
    return new ProviderError("network", `Gemini request failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** Gemini's OpenAPI-style schema: SchemaType names, enums flagged with format "enum", no additionalProperties. */
export function toGeminiSchema(schema: JsonSchema): Schema {
  const description = schema.description === undefined ? {} : { description: schema.description };
  switch (schema.type) {
    case "object":
      return {
        type: SchemaType.OBJECT,
        properties: Object.fromEntries(Object.entries(schema.properties).map(([name, sub]) => [name, toGeminiSchema(sub)])),
        required: schema.required,
        ...description,
      };
    case "array":
      return {
        type: SchemaType.ARRAY,
        items: toGeminiSchema(schema.items),
        ...(schema.minItems === undefined ? {} : { minItems: schema.minItems }),
        ...(schema.maxItems === undefined ? {} : { maxItems: schema.maxItems }),
        ...description,
      };
    case "string":
      return schema.enum ? { type: SchemaType.STRING, format: "enum", enum: schema.enum, ...description } : { type: SchemaType.STRING, ...description };
    case "number":
      return { type: SchemaType.NUMBER, ...description };
  }
}

/**
 * promptTokenCount in, candidatesTokenCount out, plus thoughtsTokenCount: Gemini 2.5 models think
 * by default and bill those tokens as output (the wire field is not in this SDK's types).
 */
function geminiUsage(metadata: UsageMetadata | undefined): TokenUsage | null {
  if (!metadata) return null;
  // Read as unknown: the SDK types every count as present, but the API leaves out those that are 0.
  const { promptTokenCount, candidatesTokenCount, thoughtsTokenCount } = metadata as unknown as Partial<Record<string, unknown>>;
  const counts = [candidatesTokenCount, thoughtsTokenCount].filter((n): n is number => typeof n === "number");
  return tokenUsage(promptTokenCount, counts.length > 0 ? counts.reduce((sum, n) => sum + n, 0) : undefined);
}

/** `google.rpc.RetryInfo` `retryDelay` ("2s", "0.5s") in ms. */
function retryDelayMs(details: ErrorDetails[] | undefined): number | null {
  for (const detail of details ?? []) {
    const delay = (detail as { retryDelay?: unknown }).retryDelay; // RetryInfo's field is not in the SDK's ErrorDetails type
    if (detail["@type"]?.endsWith("google.rpc.RetryInfo") && typeof delay === "string") {
      const seconds = Number.parseFloat(delay);
      if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
    }
  }
  return null;
}
