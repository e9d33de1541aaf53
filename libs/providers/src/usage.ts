import type { TokenUsage } from "@sd/contracts";

const count = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;

/**
 * A call's token counts as its vendor reported them; null when it reported neither (a vendor, or an
 * OpenAI-compatible server, that sends no usage). A missing half counts 0: a blocked or empty
 * answer reports its prompt tokens and no output.
 */
export function tokenUsage(input: unknown, output: unknown): TokenUsage | null {
  const inputTokens = count(input);
  const outputTokens = count(output);
  if (inputTokens === null && outputTokens === null) return null;
  return { input_tokens: inputTokens ?? 0, output_tokens: outputTokens ?? 0 };
}
