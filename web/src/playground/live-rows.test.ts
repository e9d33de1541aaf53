import { describe, expect, it } from "vitest";
import type { DecisionResponse } from "@sd/contracts";
import { decisionRunReducer, IDLE_RUN, type DecisionRun, type DecisionRunAction, type ModelInfo } from "./decision-run";
import { liveRows, type ModelRow } from "./live-rows";

const model = (id: string, label: string): ModelInfo => ({ id, label, model: `${id}-model`, simulated: false });
const MODELS = [
  model("openai", "OpenAI GPT-4o"),
  model("gemini", "Google Gemini 2.5 Flash"),
  model("claude", "Anthropic Claude Sonnet 3.5"),
  model("gpt5", "OpenAI GPT-5"),
];
const [OPENAI, GEMINI, CLAUDE, GPT5] = MODELS as [ModelInfo, ModelInfo, ModelInfo, ModelInfo];

const run = (...actions: DecisionRunAction[]): DecisionRun => actions.reduce(decisionRunReducer, IDLE_RUN);
const vote = (provider: string, status: "pending" | "success" | "error" | "skipped", response: string | null, round?: number, extra: { confidence?: number; rationale?: string } = {}): DecisionRunAction => ({
  type: "vote",
  event: { provider, status, response, model_version: null, confidence: extra.confidence ?? null, rationale: extra.rationale ?? null, ...(round === undefined ? {} : { round }) },
});
const answer = (individual: Record<string, string | null>): DecisionResponse => ({
  final_decision: "Yes",
  total_votes: 2,
  vote_counts: { Yes: 2 },
  individual_responses: individual,
  context_explanation: "",
  decision_id: "d1",
  question: "Ship?",
});
const shown = (rows: ModelRow[]) => rows.map((r) => [r.label, r.status, r.response, r.round]);
const majority = { panel: [OPENAI, GEMINI, CLAUDE], mode: "majority_voting" as const, judge: null };

describe("liveRows before the first question", () => {
  it("lists the chosen panel in order, idle", () => {
    expect(shown(liveRows(MODELS, IDLE_RUN, majority))).toEqual([
      ["OpenAI GPT-4o", "idle", null, null],
      ["Google Gemini 2.5 Flash", "idle", null, null],
      ["Anthropic Claude Sonnet 3.5", "idle", null, null],
    ]);
    expect(shown(liveRows(MODELS, IDLE_RUN, { ...majority, panel: [GPT5, OPENAI] })).map(([label]) => label)).toEqual(["OpenAI GPT-5", "OpenAI GPT-4o"]);
  });

  it("adds the judge's row in judge mode", () => {
    const rows = liveRows(MODELS, IDLE_RUN, { panel: [OPENAI, GEMINI], mode: "judge", judge: "gpt5" });
    expect(rows.map((r) => [r.label, r.kind, r.status])).toEqual([
      ["OpenAI GPT-4o", "model", "idle"],
      ["Google Gemini 2.5 Flash", "model", "idle"],
      ["Judge: OpenAI GPT-5", "judge", "idle"],
    ]);
  });
});

describe("liveRows of a decision", () => {
  it("follows the request's panel, not the controls' current one, and appends models the answer named under their label or id", () => {
    const state = run(
      { type: "start", providers: ["gpt5", "claude"] },
      vote("claude", "success", "No", undefined, { confidence: 0.6, rationale: "Too risky." }),
      { type: "complete", response: answer({ gpt5: "Yes", claude: "No", openai: "Yes", mystery: "Yes" }) },
    );
    const rows = liveRows(MODELS, state, majority);
    expect(shown(rows)).toEqual([
      ["OpenAI GPT-5", "success", "Yes", null],
      ["Anthropic Claude Sonnet 3.5", "success", "No", null],
      ["OpenAI GPT-4o", "success", "Yes", null],
      ["mystery", "success", "Yes", null],
    ]);
    expect(rows[1]).toMatchObject({ confidence: 0.6, rationale: "Too risky." });
  });

  it("gossip: each row shows its latest round, with the earlier ones under it", () => {
    const state = run(
      { type: "start", providers: ["openai", "gemini"], mode: "gossip" },
      vote("openai", "success", "Yes", 1, { confidence: 0.9 }),
      vote("gemini", "success", "No", 1),
      vote("openai", "success", "No", 2),
      vote("gemini", "pending", null, 2),
    );
    const rows = liveRows(MODELS, state, majority);
    expect(shown(rows)).toEqual([
      ["OpenAI GPT-4o", "success", "No", 2],
      ["Google Gemini 2.5 Flash", "pending", null, 2],
    ]);
    expect(rows[0]!.earlier).toEqual([{ round: 1, status: "success", response: "Yes", confidence: 0.9, rationale: null, stats: null }]);
    expect(rows[1]!.earlier.map((r) => r.response)).toEqual(["No"]);
  });

  it("gossip: round 1 is tagged too, so the tag never jumps in", () => {
    const rows = liveRows(MODELS, run({ type: "start", providers: ["openai"], mode: "gossip" }), majority);
    expect(rows[0]).toMatchObject({ status: "pending", round: 1 });
  });

  it("judge: the judge's row comes last, labelled 'Judge: <label>', apart from the same model's panel row", () => {
    const state = run(
      { type: "start", providers: ["openai", "gemini"], mode: "judge", judge: "openai" },
      vote("openai", "success", "No", 1),
      vote("gemini", "success", "Yes", 1),
      vote("openai", "pending", null, 0),
    );
    const rows = liveRows(MODELS, state, majority);
    expect(rows.map((r) => [r.key, r.label, r.status, r.response])).toEqual([
      ["model:openai", "OpenAI GPT-4o", "success", "No"],
      ["model:gemini", "Google Gemini 2.5 Flash", "success", "Yes"],
      ["judge:openai", "Judge: OpenAI GPT-4o", "pending", null],
    ]);
    const verdict = decisionRunReducer(state, vote("openai", "success", "Yes", 0, { rationale: "Yes had the stronger case." }));
    expect(liveRows(MODELS, verdict, majority)[2]).toMatchObject({ kind: "judge", status: "success", response: "Yes", rationale: "Yes had the stronger case.", round: null });
  });

  it("early quorum: a skipped model's row says skipped, in its place", () => {
    const state = run({ type: "start", providers: ["openai", "gemini", "claude"], mode: "majority_voting" }, vote("claude", "skipped", null));
    expect(shown(liveRows(MODELS, state, majority))).toEqual([
      ["OpenAI GPT-4o", "pending", null, null],
      ["Google Gemini 2.5 Flash", "pending", null, null],
      ["Anthropic Claude Sonnet 3.5", "skipped", null, null],
    ]);
  });
});
