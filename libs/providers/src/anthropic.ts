import Anthropic from "@anthropic-ai/sdk";
import type { ProviderConfig } from "@sd/contracts";
import { StructuredOutputProvider, type StructuredReply } from "./base";
import { ProviderError, errorFromStatus, retryAfterMsFromHeaders, timeoutError } from "./errors";
import type { ImagePart, StructuredRequest } from "./prompt";
import { keepAliveFetch } from "./transport";
import { tokenUsage } from "./usage";

/** Image types the messages API accepts. */
const MEDIA_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
type MediaType = (typeof MEDIA_TYPES)[number];
const isMediaType = (value: string): value is MediaType => (MEDIA_TYPES as readonly string[]).includes(value);

/** Anthropic messages with forced tool use: the tool's input_schema carries the enum. */
export class AnthropicProvider extends StructuredOutputProvider {
  readonly #client: Anthropic;

  constructor(config: ProviderConfig) {
    super(config);
    // maxRetries 0: the queue owns retries, so one call is one HTTP attempt. The shared keep-alive pool carries it.
    this.#client = new Anthropic({ apiKey: config.apiKey, baseURL: config.baseUrl ?? undefined, maxRetries: 0, timeout: config.timeoutMs, fetch: keepAliveFetch });
  }

  protected async complete(request: StructuredRequest, signal: AbortSignal | undefined): Promise<StructuredReply> {
    let message: Anthropic.Message;
    try {
      message = await this.#client.messages.create(
        {
          model: this.config.model,
          max_tokens: 1024,
          system: request.system,
          // Images before the text, as Anthropic recommends.
          messages: [{ role: "user", content: [...request.images.map(imageBlock), { type: "text", text: request.text }] }],
          tools: [{ name: request.name, description: request.description, input_schema: request.schema }],
          tool_choice: { type: "tool", name: request.name },
        },
        { signal },
      );
    } catch (error) {
      throw this.#mapError(error, signal);
    }
    // input_tokens leaves out prompt-cache reads and writes; these requests set no cache_control, so there are none.
    const usage = tokenUsage(message.usage?.input_tokens, message.usage?.output_tokens);
    const tool = message.content.find((block) => block.type === "tool_use" && block.name === request.name);
    if (tool?.type === "tool_use") return { raw: JSON.stringify(tool.input), model: message.model ?? null, usage };
    // No tool call despite tool_choice: hand over the text, which the parser will judge.
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    return { raw: text, model: message.model ?? null, usage };
  }

  #mapError(error: unknown, signal: AbortSignal | undefined): ProviderError {
    if (error instanceof ProviderError) return error;
    // Subclasses first: the timeout error is a connection error, and both are APIErrors without a status.
    if (error instanceof Anthropic.APIConnectionTimeoutError) return timeoutError("Anthropic", this.config.timeoutMs, false, error);
    if (error instanceof Anthropic.APIUserAbortError) return timeoutError("Anthropic", this.config.timeoutMs, signal?.aborted ?? true, error);
    if (error instanceof Anthropic.APIConnectionError) {
      return new ProviderError("network", `Anthropic connection failed: ${error.cause instanceof Error ? error.cause.message : error.message}`, { cause: error });
    }
    if (error instanceof Anthropic.APIError && typeof error.status === "number") {
      return errorFromStatus("Anthropic", error.status, error.apiMessage ?? error.message, retryAfterMsFromHeaders(error.headers), error);
    }
    return new ProviderError("network", `Anthropic request failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function imageBlock(image: ImagePart): Anthropic.ImageBlockParam {
  const mediaType = image.mediaType === "image/jpg" ? "image/jpeg" : image.mediaType;
  if (!isMediaType(mediaType)) {
    throw new ProviderError("client", `Anthropic accepts ${MEDIA_TYPES.join(", ")} images, not ${image.mediaType}`);
  }
  return { type: "image", source: { type: "base64", media_type: mediaType, data: image.data } };
}
