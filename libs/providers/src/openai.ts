import OpenAI from "openai";
import type { ChatCompletionContentPart } from "openai/resources/chat/completions";
import type { ProviderConfig } from "@sd/contracts";
import { StructuredOutputProvider, type StructuredReply } from "./base";
import { ProviderError, errorFromStatus, retryAfterMsFromHeaders, timeoutError } from "./errors";
import { jsonModeSystem, type StructuredRequest } from "./prompt";
import { keepAliveFetch } from "./transport";
import { tokenUsage } from "./usage";

/**
 * OpenAI chat completions with strict json_schema output; also any OpenAI-compatible endpoint,
 * in JSON mode (`json_object`) for those without json_schema.
 */
export class OpenAIProvider extends StructuredOutputProvider {
  readonly #client: OpenAI;

  constructor(config: ProviderConfig) {
    super(config);
    // maxRetries 0: the queue owns retries, so one call is one HTTP attempt. The shared keep-alive pool carries it.
    this.#client = new OpenAI({ apiKey: config.apiKey, baseURL: config.baseUrl ?? undefined, maxRetries: 0, timeout: config.timeoutMs, fetch: keepAliveFetch });
  }

  protected async complete(request: StructuredRequest, signal: AbortSignal | undefined): Promise<StructuredReply> {
    const content: ChatCompletionContentPart[] = [
      { type: "text", text: request.text },
      ...request.images.map((image): ChatCompletionContentPart => ({ type: "image_url", image_url: { url: image.url } })),
    ];
    // JSON mode for servers without json_schema: the schema travels in the system prompt, and the
    // enum is enforced by parseVote instead of by the server.
    const jsonMode = this.config.structuredOutput === "json_object";
    let completion: OpenAI.ChatCompletion;
    try {
      completion = await this.#client.chat.completions.create(
        {
          model: this.config.model,
          messages: [
            { role: "system", content: jsonMode ? jsonModeSystem(request.system, request.schema) : request.system },
            { role: "user", content },
          ],
          response_format: jsonMode
            ? { type: "json_object" }
            : { type: "json_schema", json_schema: { name: request.name, description: request.description, strict: true, schema: request.schema } },
        },
        { signal },
      );
    } catch (error) {
      throw this.#mapError(error, signal);
    }
    // completion_tokens includes a reasoning model's reasoning tokens, billed as output.
    const usage = tokenUsage(completion.usage?.prompt_tokens, completion.usage?.completion_tokens);
    const choice = completion.choices[0];
    const raw = choice?.message.content ?? null;
    if (raw === null) {
      const why = choice?.message.refusal ? `refused: ${choice.message.refusal}` : "returned no content";
      throw new ProviderError("malformed", `${this.config.vendor} model ${why}`, { raw: choice?.message.refusal ?? null, usage });
    }
    if (choice?.finish_reason === "length") {
      throw new ProviderError("malformed", "model output was cut off (finish_reason length)", { raw, usage });
    }
    return { raw, model: completion.model ?? null, usage };
  }

  #mapError(error: unknown, signal: AbortSignal | undefined): ProviderError {
    const vendor = this.config.vendor === "openai" ? "OpenAI" : `OpenAI-compatible (${this.config.id})`;
    if (error instanceof ProviderError) return error;
    // Subclasses first: the timeout error is a connection error, and both are APIErrors without a status.
    if (error instanceof OpenAI.APIConnectionTimeoutError) return timeoutError(vendor, this.config.timeoutMs, false, error);
    if (error instanceof OpenAI.APIUserAbortError) return timeoutError(vendor, this.config.timeoutMs, signal?.aborted ?? true, error);
    if (error instanceof OpenAI.APIConnectionError) {
      return new ProviderError("network", `${vendor} connection failed: ${error.cause instanceof Error ? error.cause.message : error.message}`, { cause: error });
    }
    if (error instanceof OpenAI.APIError && typeof error.status === "number") {
      // The body's own message; error.message repeats the status in front of it.
      const body = error.error as { message?: unknown } | undefined;
      const message = typeof body?.message === "string" ? body.message : error.message;
      return errorFromStatus(vendor, error.status, message, retryAfterMsFromHeaders(error.headers), error);
    }
    return new ProviderError("network", `${vendor} request failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}
