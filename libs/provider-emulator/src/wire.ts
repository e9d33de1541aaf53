import type { EmulatorUsage, EmulatorVendor } from "./rules";

/** What the emulator needs from one vendor request, whatever its wire format. */
export interface ParsedCall {
  model: string;
  /** Text of the user message(s): rules match on it and default answers are seeded by it. */
  promptText: string;
  imageCount: number;
  /** JSON schema the answer must follow; null when the caller asked for free text. */
  schema: unknown;
  /** Anthropic: the forced tool's name, echoed in the tool_use block. */
  toolName: string | null;
}

/** Tokens a reply reports (see EmulatorUsageSchema); null: the reply carries no usage. */
export interface ReplyUsage {
  input: number;
  output: number;
  /** The part of `output` spent thinking. */
  reasoning: number;
}

/** One vendor's wire format: request parsing and the three kinds of reply bodies. */
export interface VendorWire {
  vendor: EmulatorVendor;
  /** Throws BadRequest when the body is not a request of this API. */
  parse(body: unknown, pathModel: string | null): ParsedCall;
  /** `usage`: a rule's token counts; undefined for the emulator's estimate, null for none. */
  success(call: ParsedCall, output: unknown, id: string, usage: EmulatorUsage | undefined): unknown;
  /** Output a client cannot parse as the answer it asked for (billed like any answer). */
  malformed(call: ParsedCall, id: string, usage: EmulatorUsage | undefined): unknown;
  error(status: number, message: string, retryAfterS: number | undefined): unknown;
}

export class BadRequest extends Error {}

export type Json = Record<string, unknown>;
export const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
export const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Rough token count (4 characters a token), so usage fields look plausible. */
export const tokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

/** Tokens an image costs in the estimate (Gemini's figure for a small image; the others are alike). */
export const IMAGE_TOKENS = 258;

/**
 * What a reply reports: a rule's counts, or a deterministic estimate from the request's text and
 * images and the reply's own text (the same question gets the same usage), or null for none.
 */
export function replyUsage(call: ParsedCall, replyText: string, usage: EmulatorUsage | undefined): ReplyUsage | null {
  if (usage === null) return null;
  if (usage !== undefined) return { input: usage.input_tokens, output: usage.output_tokens, reasoning: usage.reasoning_tokens ?? 0 };
  return { input: tokens(call.promptText) + IMAGE_TOKENS * call.imageCount, output: tokens(replyText), reasoning: 0 };
}

export const MALFORMED_TEXT = 'Sure! The answer is {"category": "';

/**
 * Text and image count of the user messages of a chat-style request (OpenAI and Anthropic share
 * the shape: a string or a list of typed parts); `imageType` names the image part's type.
 */
export function userContent(messages: unknown[], imageType: "image_url" | "image"): { promptText: string; imageCount: number } {
  const texts: string[] = [];
  let imageCount = 0;
  for (const message of messages) {
    if (!isObject(message) || message["role"] !== "user") continue;
    const content = message["content"];
    if (typeof content === "string") texts.push(content);
    for (const part of asArray(content)) {
      if (!isObject(part)) continue;
      if (part["type"] === "text" && typeof part["text"] === "string") texts.push(part["text"]);
      if (part["type"] === imageType) imageCount += 1;
    }
  }
  return { promptText: texts.join("\n"), imageCount };
}
