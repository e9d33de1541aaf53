import { IMAGE_DATA_URL } from "@sd/contracts";
import { ProviderError } from "./errors";

/** The JSON Schema subset the adapters send; Gemini's adapter converts it to the SDK's Schema. */
export type JsonSchema =
  | { type: "object"; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false; description?: string }
  | { type: "array"; items: JsonSchema; minItems?: number; maxItems?: number; description?: string }
  | { type: "string"; enum?: string[]; description?: string }
  | { type: "number"; minimum?: number; maximum?: number; description?: string };
export type ObjectSchema = Extract<JsonSchema, { type: "object" }>;

/** One structured-output request, vendor neutral: each adapter renders it in its own wire format. */
export interface StructuredRequest {
  /** Names the OpenAI json_schema and the Anthropic tool. */
  name: string;
  description: string;
  system: string;
  text: string;
  images: ImagePart[];
  /** An object at the top: Anthropic tool inputs must be objects. */
  schema: ObjectSchema;
}

export interface ImagePart {
  mediaType: string;
  /** base64 payload */
  data: string;
  /** the original data URL, which OpenAI takes as is */
  url: string;
}

export const VOTE_SYSTEM_PROMPT =
  "You help people make decisions. Answer the user's question by choosing exactly one of the allowed categories, " +
  "spelled exactly as listed. Give a one-sentence rationale and your confidence in the choice from 0 to 1. " +
  "Consider any attached images.";

export const SUGGEST_SYSTEM_PROMPT =
  "You help people frame decisions. Suggest 3 to 6 short, distinct answer categories for the user's question " +
  "that are not among the existing choices, each with your confidence from 0 to 1 that it is a useful choice. " +
  "Consider any attached images.";

const confidence: JsonSchema = { type: "number", minimum: 0, maximum: 1, description: "Confidence from 0 to 1." };

/** category (the allowed categories as an enum), rationale, confidence: all required, nothing else. */
export function voteSchema(categories: readonly string[]): ObjectSchema {
  return {
    type: "object",
    properties: {
      category: { type: "string", enum: [...categories], description: "Exactly one of the allowed categories." },
      rationale: { type: "string", description: "One sentence explaining the choice." },
      confidence,
    },
    required: ["category", "rationale", "confidence"],
    additionalProperties: false,
  };
}

export function suggestSchema(): ObjectSchema {
  return {
    type: "object",
    properties: {
      suggestions: {
        type: "array",
        minItems: 3,
        maxItems: 6,
        items: {
          type: "object",
          properties: { category: { type: "string", description: "A short answer category." }, confidence },
          required: ["category", "confidence"],
          additionalProperties: false,
        },
      },
    },
    required: ["suggestions"],
    additionalProperties: false,
  };
}

export function voteText(question: string, categories: readonly string[]): string {
  return `Question: ${question}\n\nAllowed categories:\n${categories.map((c) => `- ${c}`).join("\n")}`;
}

export function suggestText(question: string, existingChoices: readonly string[]): string {
  const existing = existingChoices.length > 0 ? existingChoices.map((c) => `- ${c}`).join("\n") : "(none)";
  return `Question: ${question}\n\nExisting choices:\n${existing}`;
}

/** Splits data URLs; anything else is the caller's mistake, so a non-retryable client error. */
export function parseImages(images: readonly string[]): ImagePart[] {
  return images.map((url, index) => {
    const match = IMAGE_DATA_URL.exec(url);
    if (!match) throw new ProviderError("client", `image ${index + 1} is not a base64 data:image URL`);
    return { mediaType: match[1]!.toLowerCase(), data: match[2]!, url };
  });
}
