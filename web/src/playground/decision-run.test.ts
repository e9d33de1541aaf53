import { describe, expect, it } from "vitest";
import type { DecisionResponse } from "@sd/contracts";
import { decisionRunReducer, IDLE_RUN, modelRows, type DecisionRun, type DecisionRunAction } from "./decision-run";

const PROVIDERS = ["openai", "gemini", "claude"];
const MODELS = [
  { id: "openai", label: "OpenAI GPT-4o", model: "gpt-4o", simulated: false },
  { id: "gemini", label: "Google Gemini 2.5 Flash", model: "gemini-2.5-flash", simulated: false },
  { id: "claude", label: "Anthropic Claude Sonnet 3.5", model: "claude-sonnet-4-6", simulated: false },
];

const run = (...actions: DecisionRunAction[]): DecisionRun => actions.reduce(decisionRunReducer, IDLE_RUN);
const start: DecisionRunAction = { type: "start", providers: PROVIDERS };
const vote = (
  provider: string,
  status: "pending" | "success" | "error",
  response: string | null = null,
  { confidence = null, rationale = null }: { confidence?: number | null; rationale?: string | null } = {},
): DecisionRunAction => ({
  type: "vote",
  event: { provider, status, response, model_version: status === "pending" ? null : `${provider}-model`, confidence, rationale },
});
const response = (individual: Record<string, string | null>): DecisionResponse => ({
  final_decision: "Yes",
  total_votes: 2,
  vote_counts: { Yes: 2, No: 0 },
  individual_responses: individual,
  context_explanation: "Most models said yes.",
  decision_id: "d1",
  question: "Ship?",
});
const statuses = (state: DecisionRun) => Object.fromEntries(Object.entries(state.outcomes).map(([id, o]) => [id, o.status]));

describe("decisionRunReducer", () => {
  it("makes every asked model pending on start", () => {
    const state = run(start);
    expect(state.phase).toBe("running");
    expect(statuses(state)).toEqual({ openai: "pending", gemini: "pending", claude: "pending" });
  });

  it("settles each row as its own vote event arrives", () => {
    const state = run(start, vote("openai", "pending"), vote("openai", "success", "Yes"));
    expect(state.outcomes.openai).toEqual({ status: "success", response: "Yes", modelVersion: "openai-model", confidence: null, rationale: null });
    expect(statuses(state)).toEqual({ openai: "success", gemini: "pending", claude: "pending" });
    expect(statuses(run(start, vote("claude", "error")))).toEqual({ openai: "pending", gemini: "pending", claude: "error" });
  });

  it("keeps each model's confidence and reason from its live vote, through the final answer", () => {
    const reason = { confidence: 0.856, rationale: "  Friday deploys leave no one to fix a bad release.  " };
    const live = run(start, vote("openai", "success", "No", reason));
    expect(live.outcomes.openai).toMatchObject({ status: "success", response: "No", confidence: 0.856, rationale: "Friday deploys leave no one to fix a bad release." });
    const done = decisionRunReducer(live, { type: "complete", response: response({ openai: "No", gemini: "Yes", claude: null }) });
    expect(done.outcomes.openai).toMatchObject({ confidence: 0.856, rationale: "Friday deploys leave no one to fix a bad release." });
    // The HTTP answer carries no confidence or reason: a row it settles has none.
    expect(done.outcomes.gemini).toMatchObject({ status: "success", response: "Yes", confidence: null, rationale: null });
  });

  it("keeps no confidence or reason for a failed vote, or a blank reason", () => {
    expect(run(start, vote("claude", "error", null, { confidence: 0.9, rationale: "x" })).outcomes.claude).toMatchObject({ confidence: null, rationale: null });
    expect(run(start, vote("claude", "success", "No", { confidence: 0.7, rationale: " " })).outcomes.claude).toMatchObject({ confidence: 0.7, rationale: null });
  });

  it("never reopens a settled row with a late pending event", () => {
    const state = run(start, vote("openai", "success", "Yes"), vote("openai", "pending"));
    expect(state.outcomes.openai?.status).toBe("success");
  });

  it("treats a success without an answer as a failure", () => {
    expect(run(start, vote("gemini", "success", "  ")).outcomes.gemini?.status).toBe("error");
  });

  it("ignores vote events when no request is running", () => {
    expect(run(vote("openai", "success", "Yes"))).toBe(IDLE_RUN);
  });

  it("settles rows still pending from the HTTP answer and keeps those already settled", () => {
    const state = run(start, vote("openai", "success", "No"), vote("gemini", "error"), {
      type: "complete",
      response: response({ openai: "No", gemini: null, claude: "Yes" }),
    });
    expect(state.phase).toBe("done");
    expect(state.result?.final_decision).toBe("Yes");
    expect(state.outcomes).toMatchObject({
      openai: { status: "success", response: "No" },
      gemini: { status: "error", response: null },
      claude: { status: "success", response: "Yes" },
    });
  });

  it("marks a pending model without an answer in individual_responses as failed", () => {
    const state = run(start, { type: "complete", response: response({ openai: "Yes", gemini: "", claude: null }) });
    expect(statuses(state)).toEqual({ openai: "success", gemini: "error", claude: "error" });
  });

  it("adds models the answer names that were not asked", () => {
    const state = run(start, { type: "complete", response: response({ openai: "Yes", gemini: "Yes", claude: "No", llama: "No" }) });
    expect(state.outcomes.llama).toEqual({ status: "success", response: "No", modelVersion: null, confidence: null, rationale: null });
  });

  it("fails every row when the request fails", () => {
    const state = run(start, vote("openai", "success", "Yes"), { type: "fail" });
    expect(state.phase).toBe("failed");
    expect(statuses(state)).toEqual({ openai: "error", gemini: "error", claude: "error" });
    expect(state.outcomes.openai).toMatchObject({ response: null, confidence: null, rationale: null });
  });

  it("starts afresh on the next submit", () => {
    const state = run(start, { type: "fail" }, start);
    expect(state.result).toBeNull();
    expect(statuses(state)).toEqual({ openai: "pending", gemini: "pending", claude: "pending" });
  });
});

describe("modelRows", () => {
  it("lists the models in order, idle before the first question", () => {
    expect(modelRows(MODELS, {}).map((r) => [r.label, r.status])).toEqual([
      ["OpenAI GPT-4o", "idle"],
      ["Google Gemini 2.5 Flash", "idle"],
      ["Anthropic Claude Sonnet 3.5", "idle"],
    ]);
  });

  it("shows each model's outcome and appends unlisted models under their id", () => {
    const { outcomes } = run(start, vote("gemini", "success", "No", { confidence: 0.6, rationale: "Too risky." }), vote("llama", "success", "Yes"));
    const rows = modelRows(MODELS, outcomes);
    expect(rows.map((r) => [r.label, r.status, r.response, r.confidence, r.rationale])).toEqual([
      ["OpenAI GPT-4o", "pending", null, null, null],
      ["Google Gemini 2.5 Flash", "success", "No", 0.6, "Too risky."],
      ["Anthropic Claude Sonnet 3.5", "pending", null, null, null],
      ["llama", "success", "Yes", null, null],
    ]);
  });
});
