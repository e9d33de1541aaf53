import type { StoredDecision } from "@sd/contracts";

/** A complete, valid decision for tests; override any field. */
export function sampleDecision(overrides: Partial<StoredDecision> = {}): StoredDecision {
  return {
    id: "dec-1",
    question: "Which language should we use?",
    timestamp: new Date("2024-05-01T10:00:00.000Z"),
    categories: ["TypeScript", "Go"],
    final_decision: "TypeScript",
    vote_counts: { TypeScript: 2, Go: 1 },
    total_votes: 3,
    context_explanation: "Two of three models chose TypeScript.",
    individual_responses: { openai: "TypeScript", gemini: "TypeScript", claude: "Go" },
    raw_responses: { openai: "TypeScript.", gemini: "typescript", claude: "Go" },
    confidence_scores: { openai: 0.9, gemini: 0.8, claude: 0.6 },
    rationales: { openai: "Its type system catches mistakes early.", gemini: "The team already knows it.", claude: "Go is simpler to deploy." },
    model_versions: { openai: "gpt-test", gemini: "gemini-test", claude: "claude-test" },
    error_details: {},
    processing_time_ms: 1234,
    ensemble_mode: "majority_voting",
    is_authenticated: true,
    user_id: "user-1",
    user_ip: "203.0.113.7",
    user_email: "user@example.com",
    images: [],
    api_key_id: null,
    token_usage: {
      openai: { input_tokens: 120, output_tokens: 40 },
      gemini: { input_tokens: 118, output_tokens: 36 },
      claude: { input_tokens: 131, output_tokens: 52 },
    },
    // gpt-4o, gemini-2.5-flash and claude-sonnet-4-6 at their list prices for those tokens.
    cost_usd: 0.0007 + 0.0001254 + 0.001173,
    model_latencies_ms: { openai: 820, gemini: 640, claude: 1100 },
    model_costs_usd: { openai: 0.0007, gemini: 0.0001254, claude: 0.001173 },
    rerun_of: null,
    ...overrides,
  };
}
