import { CHAT_MODEL, CHAT_MODELS, type ChatCompletionRequest, type ChatContentPart, type ChatModel } from "@sd/contracts";
import { DomainError } from "./errors";

/** How a chat completion request gives its categories, quoted by every refusal that lacks them. */
export const CATEGORIES_HOW_TO =
  'Give the allowed answers as response_format {"type": "json_schema", "json_schema": {"name": "decision", "schema": {"type": "object", "properties": {"answer": {"type": "string", "enum": ["Yes", "No"]}}, "required": ["answer"]}}} (the OpenAI SDKs\' zodResponseFormat with a z.enum builds it).';

const invalid = (message: string, param: string) => new DomainError("invalid", message, { param });

/** The model a request names: `smart-decision`, a mode's id, or `smart-decision/<preset>` when `isPreset` knows the name. */
export async function chatModel(id: string, isPreset: (name: string) => Promise<boolean>): Promise<ChatModel> {
  const model = CHAT_MODELS.find((candidate) => candidate.id === id);
  if (model) return model;
  const name = id.startsWith(`${CHAT_MODEL}/`) ? id.slice(CHAT_MODEL.length + 1) : null;
  if (name && (await isPreset(name))) return { id, mode: null, preset: name };
  throw new DomainError(
    "not-found",
    `The model '${id}' does not exist. Use ${CHAT_MODEL}, ${CHAT_MODEL}/<mode> or ${CHAT_MODEL}/<one of your preset names>: GET /v1/models lists them.`,
    { param: "model", code: "model_not_found" },
  );
}

const textOf = (content: string | readonly ChatContentPart[] | null | undefined): string[] =>
  typeof content === "string" ? [content] : (content ?? []).flatMap((part) => (part.type === "text" && typeof part.text === "string" ? [part.text] : []));

/**
 * The question and images of the last user message, with the system and developer messages
 * before it as context (given to every model ahead of the question).
 */
export function questionOf(messages: ChatCompletionRequest["messages"]): { question: string; images: string[] } {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  if (lastUser < 0) throw invalid("messages must contain a user message: its text is the question.", "messages");
  const { content } = messages[lastUser]!;
  const images: string[] = [];
  for (const part of typeof content === "string" || !content ? [] : content) {
    if (part.type === "text") continue;
    if (part.type !== "image_url") throw invalid(`Content parts of type '${part.type}' are not supported: send text and image_url parts.`, `messages[${lastUser}].content`);
    const url = (part as { image_url: { url: string } }).image_url.url;
    if (!url.startsWith("data:")) throw invalid("image_url must be a data URL (data:image/...;base64,...): links to images are not fetched.", `messages[${lastUser}].content`);
    images.push(url);
  }
  const context = messages
    .slice(0, lastUser)
    .filter((message) => message.role === "system" || message.role === "developer")
    .flatMap((message) => textOf(message.content));
  const question = textOf(content).join("\n").trim();
  if (question === "") throw invalid("The last user message has no text: it is the question.", `messages[${lastUser}].content`);
  return { question: [...context.map((text) => text.trim()).filter((text) => text !== ""), question].join("\n\n"), images };
}

type JsonSchema = Record<string, unknown>;

/** Where the categories sit in the caller's schema: the property path to the string enum. */
export interface CategorySlot {
  path: string[];
  categories: string[];
}

const isObject = (value: unknown): value is JsonSchema => typeof value === "object" && value !== null && !Array.isArray(value);

/** A local `$ref` (`#/definitions/x`, `#/$defs/x`), as zod-to-json-schema writes reused parts. */
function resolve(schema: JsonSchema, root: JsonSchema): JsonSchema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return schema;
  let target: unknown = root;
  for (const key of ref.slice(2).split("/")) target = isObject(target) ? target[key] : undefined;
  return isObject(target) ? target : schema;
}

function findSlots(schema: JsonSchema, root: JsonSchema, path: string[], depth: number): CategorySlot[] {
  const resolved = resolve(schema, root);
  if (depth > 20) return [];
  if (Array.isArray(resolved.enum)) {
    const categories = resolved.enum.filter((value): value is string => typeof value === "string");
    return categories.length === resolved.enum.length ? [{ path, categories }] : [];
  }
  if (!isObject(resolved.properties)) return [];
  return Object.entries(resolved.properties).flatMap(([name, property]) => (isObject(property) ? findSlots(property, root, [...path, name], depth + 1) : []));
}

/** The one string enum of the request's JSON schema: the decision's categories and where the answer goes. */
export function categorySlot(responseFormat: ChatCompletionRequest["response_format"]): CategorySlot {
  const schema = responseFormat?.type === "json_schema" ? responseFormat.json_schema?.schema : undefined;
  if (!isObject(schema)) throw invalid(`No categories were given. ${CATEGORIES_HOW_TO}`, "response_format");
  const slots = findSlots(schema, schema, [], 0);
  if (slots.length === 0) throw invalid(`The response_format schema has no string property constrained by enum. ${CATEGORIES_HOW_TO}`, "response_format");
  if (slots.length > 1) {
    const names = slots.map((slot) => slot.path.join(".") || "(top level)").join(", ");
    throw invalid(`The response_format schema has ${slots.length} string enums (${names}): give exactly one, the categories.`, "response_format");
  }
  const slot = slots[0]!;
  let node = resolve(schema, schema);
  for (const name of slot.path) {
    const required = Array.isArray(node.required) ? node.required.filter((field): field is string => typeof field === "string") : [];
    const extra = required.find((field) => field !== name);
    if (extra !== undefined) {
      throw invalid(`The response_format schema requires '${extra}' beside the categories ('${slot.path.join(".")}'): the answer fills only the property with the enum, so require nothing else.`, "response_format");
    }
    node = resolve((node.properties as JsonSchema)[name] as JsonSchema, schema);
  }
  return slot;
}

/** The answer as JSON of the caller's schema: the winning category in the enum's place. */
export function answerContent(slot: CategorySlot, category: string): string {
  let value: unknown = category;
  for (const name of [...slot.path].reverse()) value = { [name]: value };
  return JSON.stringify(value);
}
