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
const vote = (provider: string, status: "pending" | "success" | "error", response: string | null = null): DecisionRunAction => ({
  type: "vote",
  event: { provider, status, response, model_version: status === "pending" ? null : `${provider}-model` },
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
    expect(state.outcomes.openai).toEqual({ status: "success", response: "Yes", modelVersion: "openai-model" });
    expect(statuses(state)).toEqual({ openai: "success", gemini: "pending", claude: "pending" });
    expect(statuses(run(start, vote("claude", "error")))).toEqual({ openai: "pending", gemini: "pending", claude: "error" });
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
    expect(state.outcomes.llama).toEqual({ status: "success", response: "No", modelVersion: null });
  });

  it("fails every row when the request fails", () => {
    const state = run(start, vote("openai", "success", "Yes"), { type: "fail" });
    expect(state.phase).toBe("failed");
    expect(statuses(state)).toEqual({ openai: "error", gemini: "error", claude: "error" });
    expect(state.outcomes.openai?.response).toBeNull();
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
    const { outcomes } = run(start, vote("gemini", "success", "No"), vote("llama", "success", "Yes"));
    const rows = modelRows(MODELS, outcomes);
    expect(rows.map((r) => [r.label, r.status, r.response])).toEqual([
      ["OpenAI GPT-4o", "pending", null],
      ["Google Gemini 2.5 Flash", "success", "No"],
      ["Anthropic Claude Sonnet 3.5", "pending", null],
      ["llama", "success", "Yes"],
    ]);
  });
});
