import type { Suggestion } from "@sd/contracts";
import { ProviderError } from "./errors";

const key = (text: string): string => text.normalize("NFC").trim().toLowerCase();
const clamp01 = (n: number): number => Math.min(1, Math.max(0, n));
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ProviderError("malformed", `model output is not valid JSON: ${preview(raw)}`, { raw });
  }
}

const preview = (raw: string): string => JSON.stringify(raw.length > 200 ? `${raw.slice(0, 200)}...` : raw);

function readConfidence(value: unknown): number | null {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? clamp01(n) : null;
}

/**
 * Structured output -> one of `categories`, as spelled there (trimmed, case-insensitive match).
 * Output that is not the expected shape is "malformed"; a category outside the list is "invalid_answer".
 */
export function parseVote(raw: string, categories: readonly string[]): { category: string; rationale: string; confidence: number } {
  const value = parseJson(raw);
  if (!isObject(value) || typeof value["category"] !== "string") {
    throw new ProviderError("malformed", `model output has no "category" string: ${preview(raw)}`, { raw });
  }
  const confidence = readConfidence(value["confidence"]);
  if (confidence === null) {
    throw new ProviderError("malformed", `model output has no numeric "confidence": ${preview(raw)}`, { raw });
  }
  const answer = value["category"];
  const category = categories.find((c) => key(c) === key(answer));
  if (category === undefined) {
    const allowed = categories.map((c) => JSON.stringify(c)).join(", ");
    throw new ProviderError("invalid_answer", `model answered ${JSON.stringify(answer)}, which is not one of the categories ${allowed}`, { raw });
  }
  const rationale = typeof value["rationale"] === "string" ? value["rationale"].trim() : "";
  return { category, rationale, confidence };
}

/** `{suggestions: [{category, confidence}]}` minus blanks, existing choices and repeats, at most 6. */
export function parseSuggestions(raw: string, existingChoices: readonly string[]): Suggestion[] {
  const value = parseJson(raw);
  const list = isObject(value) ? value["suggestions"] : undefined;
  if (!Array.isArray(list)) {
    throw new ProviderError("malformed", `model output has no "suggestions" array: ${preview(raw)}`, { raw });
  }
  const seen = new Set(existingChoices.map(key));
  const out: Suggestion[] = [];
  for (const item of list) {
    if (!isObject(item) || typeof item["category"] !== "string") continue;
    const category = item["category"].trim();
    if (category === "" || seen.has(key(category))) continue;
    seen.add(key(category));
    out.push({ category, confidence: readConfidence(item["confidence"]) ?? 0 });
  }
  return out.slice(0, 6);
}
