import { z } from "zod";

/** The three wire formats the emulator speaks ("openai-compatible" providers use the OpenAI one). */
export const EmulatorVendorSchema = z.enum(["openai", "anthropic", "gemini"]);
export type EmulatorVendor = z.infer<typeof EmulatorVendorSchema>;

/**
 * Token counts an answer reports instead of the emulator's estimate; null leaves usage out of the
 * answer, as some OpenAI-compatible servers do. `output_tokens` is all billed output; the part of it
 * `reasoning_tokens` says the model spent thinking is reported the way each vendor does
 * (OpenAI within completion_tokens, Gemini apart as thoughtsTokenCount, Anthropic within output_tokens).
 */
export const EmulatorUsageSchema = z
  .strictObject({
    input_tokens: z.number().int().nonnegative(),
    output_tokens: z.number().int().nonnegative(),
    reasoning_tokens: z.number().int().nonnegative().optional(),
  })
  .refine((usage) => (usage.reasoning_tokens ?? 0) <= usage.output_tokens, "reasoning_tokens are part of output_tokens, so at most as many")
  .nullable();
export type EmulatorUsage = z.infer<typeof EmulatorUsageSchema>;

const RespondSchema = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("answer"),
    // Deliberately not checked against the request's enum: tests script enum violations with it.
    category: z.string().optional(),
    confidence: z.number().optional(),
    rationale: z.string().optional(),
    usage: EmulatorUsageSchema.optional(),
  }),
  z.strictObject({
    kind: z.literal("error"),
    status: z.number().int().min(400).max(599),
    retry_after_s: z.number().nonnegative().optional(),
    message: z.string().optional(),
  }),
  z.strictObject({ kind: z.literal("malformed"), usage: EmulatorUsageSchema.optional() }),
  z.strictObject({ kind: z.literal("hang") }),
]);

/** Strict objects so a misspelt key (say `question_contain`) is a 400, not a rule that matches everything. */
export const EmulatorRuleSchema = z.strictObject({
  match: z
    .strictObject({
      vendor: EmulatorVendorSchema.optional(),
      model: z.string().optional(),
      question_contains: z.string().optional(),
    })
    .optional(),
  latency_ms: z.number().nonnegative().optional(),
  times: z.number().int().positive().optional(),
  respond: RespondSchema,
});
export type EmulatorRule = z.infer<typeof EmulatorRuleSchema>;
export type EmulatorResponse = EmulatorRule["respond"];

export const EmulatorRulesSchema = z.union([EmulatorRuleSchema, z.array(EmulatorRuleSchema)]);

/** What a rule is matched against. */
export interface CallContext {
  vendor: EmulatorVendor;
  model: string;
  /** Text of the user message(s). */
  promptText: string;
}

function matches(rule: EmulatorRule, call: CallContext): boolean {
  const m = rule.match;
  if (!m) return true;
  if (m.vendor !== undefined && m.vendor !== call.vendor) return false;
  if (m.model !== undefined && m.model !== call.model) return false;
  if (m.question_contains !== undefined && !call.promptText.includes(m.question_contains)) return false;
  return true;
}

/** Ordered rules: the first match wins and, when it has `times`, uses up one of them. */
export class RuleStore {
  #rules: EmulatorRule[] = [];

  /** Validates everything before adding anything, so a bad batch leaves the store unchanged. */
  add(input: unknown): number {
    // Parsed as a list either way: a union's error would bury the rule's own issues.
    const rules = z.array(EmulatorRuleSchema).parse(Array.isArray(input) ? input : [input]);
    // Copies, so consuming `times` never mutates the caller's objects.
    this.#rules.push(...rules.map((r) => structuredClone(r)));
    return rules.length;
  }

  take(call: CallContext): EmulatorRule | null {
    const index = this.#rules.findIndex((r) => matches(r, call));
    if (index < 0) return null;
    const rule = this.#rules[index]!;
    if (rule.times !== undefined) {
      rule.times -= 1;
      if (rule.times <= 0) this.#rules.splice(index, 1);
    }
    return rule;
  }

  list(): EmulatorRule[] {
    return structuredClone(this.#rules);
  }

  clear(): void {
    this.#rules = [];
  }
}
