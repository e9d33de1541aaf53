import { splitImageDataUrl } from "@sd/contracts";
import { ProviderError } from "./errors";
import type { PanelAnswer, PeerAnswer } from "./types";

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

/** Gossip rounds after the first: the model sees its own and its peers' previous answers. */
export const GOSSIP_SYSTEM_PROMPT =
  "You help people make decisions together with other AI models. You answered the user's question before, and so did " +
  "the other models. Weigh their answers and reasons against your own, then keep your answer or change it: choose " +
  "exactly one of the allowed categories, spelled exactly as listed, give a one-sentence rationale and your confidence " +
  "in the choice from 0 to 1. Consider any attached images.";

export const JUDGE_SYSTEM_PROMPT =
  "You are the judge of a panel of AI models that each answered the user's question by choosing one of the allowed " +
  "categories. Read the question, the allowed categories and every panel answer with its reason and confidence, then " +
  "choose the single best category, spelled exactly as listed. Give a one-sentence rationale for the verdict and your " +
  "confidence in it from 0 to 1. Consider any attached images.";

/**
 * Lines that open each part of a gossip or judge prompt. They are stable on purpose: the provider
 * emulator reads them to simulate gossip and judge answers (libs/provider-emulator/src/prompt-reader.ts).
 * Each answer is one line, `- <label> answered "<category>"[ with confidence <n>][. Reason: "<reason>"]`
 * or `- <label> answered nothing (its call failed).`, category and reason as JSON strings.
 */
export const PROMPT_MARKERS = {
  round: "Round:",
  previous: "Your previous answer:",
  peers: "Other models' answers:",
  panel: "Panel answers:",
} as const;

/** Ends the system prompt in JSON mode (`json_object`), where the schema travels in the prompt. */
export const JSON_MODE_SCHEMA_MARKER = "Reply with one JSON object and nothing else, following this JSON Schema:";

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

/** A gossip round after the first: the vote's text, then the previous round's answers. */
export function gossipText(
  question: string,
  categories: readonly string[],
  round: { round?: number | undefined; previous?: { category: string; reason: string | null } | null | undefined; peers?: readonly PeerAnswer[] | undefined },
): string {
  const previous = round.previous
    ? `${PROMPT_MARKERS.previous} ${quoted(round.previous.category, null, round.previous.reason)}`
    : `${PROMPT_MARKERS.previous} none (your call failed).`;
  const peers = round.peers ?? [];
  const lines = [
    voteText(question, categories),
    "",
    ...(round.round === undefined ? [] : [`${PROMPT_MARKERS.round} ${round.round}`]),
    previous,
    "",
    PROMPT_MARKERS.peers,
    ...(peers.length > 0 ? peers.map((p) => `- ${p.label} ${p.category === null ? FAILED : answerLine(p.category, null, p.reason)}`) : ["(none)"]),
    "",
    "Keep your answer or change it, choosing exactly one of the allowed categories.",
  ];
  return lines.join("\n");
}

/** The judge's text: the vote's text, then every panel answer with its confidence and reason. */
export function judgeText(question: string, categories: readonly string[], answers: readonly PanelAnswer[]): string {
  const lines = [
    voteText(question, categories),
    "",
    PROMPT_MARKERS.panel,
    ...(answers.length > 0 ? answers.map((a) => `- ${a.label} ${a.category === null ? FAILED : answerLine(a.category, a.confidence, a.reason)}`) : ["(none)"]),
    "",
    "Choose the final category.",
  ];
  return lines.join("\n");
}

const FAILED = "answered nothing (its call failed).";

/** `answered "<category>"[ with confidence <n>][. Reason: "<reason>"]`. */
function answerLine(category: string, confidence: number | null, reason: string | null): string {
  return `answered ${quoted(category, confidence, reason)}`;
}

/** `"<category>"[ with confidence <n>][. Reason: "<reason>"]`, strings JSON-quoted so any text stays on one line. */
function quoted(category: string, confidence: number | null, reason: string | null): string {
  const stated = confidence === null ? "" : ` with confidence ${Math.round(confidence * 1000) / 1000}`;
  const why = reason?.trim() ? `. Reason: ${JSON.stringify(reason.trim())}` : ".";
  return `${JSON.stringify(category)}${stated}${why}`;
}

/** The system prompt of JSON mode: the request's own, then the schema the answer must follow. */
export function jsonModeSystem(system: string, schema: ObjectSchema): string {
  return `${system}\n\n${JSON_MODE_SCHEMA_MARKER}\n${JSON.stringify(schema)}`;
}

export function suggestText(question: string, existingChoices: readonly string[]): string {
  const existing = existingChoices.length > 0 ? existingChoices.map((c) => `- ${c}`).join("\n") : "(none)";
  return `Question: ${question}\n\nExisting choices:\n${existing}`;
}

/**
 * Splits data URLs; anything else is the caller's mistake, so a non-retryable client error. The
 * payload was checked where the image came in (the request's contract), and the vendor checks it again.
 */
export function parseImages(images: readonly string[]): ImagePart[] {
  return images.map((url, index) => {
    const image = splitImageDataUrl(url);
    if (!image) throw new ProviderError("client", `image ${index + 1} is not a base64 data:image URL`);
    return { mediaType: image.mediaType, data: image.payload, url };
  });
}
