import { describe, expect, it } from "vitest";
import type { DecisionResponse } from "@sd/contracts";
import { decisionRunReducer, IDLE_RUN, type DecisionRun, type DecisionRunAction } from "./decision-run";

const PROVIDERS = ["openai", "gemini", "claude"];

const run = (...actions: DecisionRunAction[]): DecisionRun => actions.reduce(decisionRunReducer, IDLE_RUN);
const start: DecisionRunAction = { type: "start", providers: PROVIDERS };
const vote = (
  provider: string,
  status: "pending" | "success" | "error" | "skipped",
  response: string | null = null,
  { confidence = null, rationale = null, round }: { confidence?: number | null; rationale?: string | null; round?: number } = {},
): DecisionRunAction => ({
  type: "vote",
  event: { provider, status, response, model_version: status === "pending" ? null : `${provider}-model`, confidence, rationale, ...(round === undefined ? {} : { round }) },
});
/** What a settled round-1 outcome holds besides its answer. */
const roundOne = { round: 1, earlier: [], stats: null };
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
    expect(state.outcomes.openai).toEqual({ status: "success", response: "Yes", modelVersion: "openai-model", confidence: null, rationale: null, ...roundOne, guessed: false });
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
    expect(state.outcomes.llama).toEqual({ status: "success", response: "No", modelVersion: null, confidence: null, rationale: null, ...roundOne, guessed: true });
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

describe("decisionRunReducer with ensembles", () => {
  const gossip: DecisionRunAction = { type: "start", providers: PROVIDERS, mode: "gossip" };
  const judged: DecisionRunAction = { type: "start", providers: PROVIDERS, mode: "judge", judge: "gpt5" };

  it("keeps the mode and panel of the request, in its order", () => {
    const state = run({ type: "start", providers: ["gpt5", "openai"], mode: "weighted_voting" });
    expect(state).toMatchObject({ mode: "weighted_voting", panel: ["gpt5", "openai"], judge: null });
    expect(statuses(state)).toEqual({ gpt5: "pending", openai: "pending" });
  });

  it("gossip: a later round's answer replaces the row's and the earlier one goes into its history", () => {
    const state = run(
      gossip,
      vote("openai", "success", "Yes", { confidence: 0.9, rationale: "Tested.", round: 1 }),
      vote("openai", "pending", null, { round: 2 }),
    );
    expect(state.outcomes.openai).toMatchObject({
      status: "pending",
      modelVersion: "openai-model",
      round: 2,
      earlier: [{ round: 1, status: "success", response: "Yes", confidence: 0.9, rationale: "Tested." }],
    });
    const next = decisionRunReducer(state, vote("openai", "success", "No", { confidence: 0.7, round: 2 }));
    expect(next.outcomes.openai).toMatchObject({ status: "success", response: "No", round: 2, earlier: [{ round: 1, response: "Yes" }] });
    const third = decisionRunReducer(next, vote("openai", "error", null, { round: 3 }));
    expect(third.outcomes.openai).toMatchObject({ status: "error", round: 3, earlier: [{ round: 1, response: "Yes" }, { round: 2, response: "No" }] });
  });

  it("gossip: a late answer of an earlier round fills in the history without replacing the current one", () => {
    const state = run(gossip, vote("gemini", "pending", null, { round: 2 }), vote("gemini", "success", "No", { round: 1 }));
    expect(state.outcomes.gemini).toMatchObject({ status: "pending", round: 2, earlier: [{ round: 1, status: "success", response: "No" }] });
  });

  it("gossip: the HTTP answer settles a row still open in a later round and keeps its history", () => {
    const state = run(gossip, vote("claude", "success", "Yes", { round: 1 }), vote("claude", "pending", null, { round: 2 }), {
      type: "complete",
      response: response({ openai: "No", gemini: "No", claude: "No" }),
    });
    expect(state.outcomes.claude).toMatchObject({ status: "success", response: "No", round: 2, earlier: [{ round: 1, response: "Yes" }], guessed: true });
  });

  it("judge: the judge waits for the panel, turns pending when asked (round 0) and shows its verdict", () => {
    const waiting = run(judged);
    expect(waiting.judge).toMatchObject({ provider: "gpt5", outcome: { status: "waiting", round: 0 } });
    const asked = decisionRunReducer(waiting, vote("gpt5", "pending", null, { round: 0 }));
    expect(asked.judge?.outcome.status).toBe("pending");
    const verdict = decisionRunReducer(asked, vote("gpt5", "success", "Yes", { round: 0, confidence: 0.8, rationale: "The best reason was for Yes." }));
    expect(verdict.judge?.outcome).toMatchObject({ status: "success", response: "Yes", rationale: "The best reason was for Yes." });
    // The judge's events never touch a panel row, even of the same model.
    expect(statuses(verdict)).toEqual({ openai: "pending", gemini: "pending", claude: "pending" });
  });

  it("judge: a model that both votes and judges keeps two outcomes", () => {
    const state = run(
      { type: "start", providers: PROVIDERS, mode: "judge", judge: "openai" },
      vote("openai", "success", "No", { round: 1 }),
      vote("openai", "success", "Yes", { round: 0 }),
    );
    expect(state.outcomes.openai).toMatchObject({ status: "success", response: "No" });
    expect(state.judge?.outcome).toMatchObject({ status: "success", response: "Yes" });
  });

  it("judge: a failed judge is an error; a verdict never seen live is left to the final decision", () => {
    expect(run(judged, vote("gpt5", "error", null, { round: 0 })).judge?.outcome.status).toBe("error");
    const unseen = run(judged, { type: "complete", response: response({ openai: "Yes", gemini: "Yes", claude: "No" }) });
    expect(unseen.judge?.outcome.status).toBe("unreported");
    expect(run(judged, { type: "fail" }).judge?.outcome.status).toBe("error");
  });

  it("early quorum: a skipped vote is 'skipped', never an error, and the answer keeps it so", () => {
    const state = run(start, vote("openai", "success", "Yes"), vote("gemini", "success", "Yes"), vote("claude", "skipped"));
    expect(state.outcomes.claude).toMatchObject({ status: "skipped", response: null });
    const done = decisionRunReducer(state, { type: "complete", response: response({ openai: "Yes", gemini: "Yes", claude: null }) });
    expect(statuses(done)).toEqual({ openai: "success", gemini: "success", claude: "skipped" });
  });

  it("a live event the HTTP answer overtook still corrects the row the answer guessed, and only that row", () => {
    const done = run(start, vote("openai", "success", "Yes"), vote("gemini", "success", "Yes"), {
      type: "complete",
      response: response({ openai: "Yes", gemini: "Yes", claude: null }),
    });
    expect(done.outcomes.claude?.status).toBe("error");
    const corrected = decisionRunReducer(done, vote("claude", "skipped"));
    expect(corrected.outcomes.claude?.status).toBe("skipped");
    // A row its own event settled, or a pending event, never changes after the answer.
    expect(decisionRunReducer(corrected, vote("openai", "success", "No")).outcomes.openai?.response).toBe("Yes");
    expect(decisionRunReducer(done, vote("claude", "pending")).outcomes.claude?.status).toBe("error");
  });

  it("keeps a settled vote's latency, tokens and cost from its live event, also in the gossip history", () => {
    const figures = { latency_ms: 812, usage: { input_tokens: 120, output_tokens: 9 }, cost_usd: 0.00039 };
    const settled = (provider: string, category: string, round: number): DecisionRunAction => {
      const action = vote(provider, "success", category, { round }) as Extract<DecisionRunAction, { type: "vote" }>;
      return { type: "vote", event: { ...action.event, ...figures } };
    };
    const state = run({ type: "start", providers: PROVIDERS, mode: "gossip" }, settled("openai", "Yes", 1), vote("openai", "pending", null, { round: 2 }));
    expect(state.outcomes.openai!.stats).toBeNull(); // round 2 is still being asked
    expect(state.outcomes.openai!.earlier).toEqual([expect.objectContaining({ round: 1, stats: { latencyMs: 812, usage: figures.usage, costUsd: 0.00039 } })]);
    const later = run(start, settled("gemini", "No", 1), { type: "complete", response: response({ openai: "Yes", gemini: "No", claude: "Yes" }) });
    expect(later.outcomes.gemini!.stats).toEqual({ latencyMs: 812, usage: figures.usage, costUsd: 0.00039 });
    // Rows the HTTP answer settled have no figures until their own event says.
    expect(later.outcomes.openai!.stats).toBeNull();
    // A vendor that reported no tokens: null usage, still a latency and a cost.
    const untold = run(start, { type: "vote", event: { ...(vote("claude", "error") as Extract<DecisionRunAction, { type: "vote" }>).event, latency_ms: 40, usage: null, cost_usd: 0 } });
    expect(untold.outcomes.claude!.stats).toEqual({ latencyMs: 40, usage: null, costUsd: 0 });
  });

  it("a refused request marks no row failed: the open rows are 'unasked' and the refusal is kept until the next submit", () => {
    const refusal = { kind: "rate-limited" as const, title: "Too many decisions", message: "Too many requests. Please wait a minute and try again.", retryAt: 60_000 };
    const judged = run({ type: "start", providers: PROVIDERS, mode: "judge", judge: "openai" }, { type: "refuse", refusal });
    expect(judged.phase).toBe("refused");
    expect(judged.refusal).toEqual(refusal);
    expect(judged.result).toBeNull();
    expect(statuses(judged)).toEqual({ openai: "unasked", gemini: "unasked", claude: "unasked" });
    expect(judged.judge!.outcome.status).toBe("unasked");
    // Nothing was asked, so no late event can arrive; one that does is ignored.
    expect(decisionRunReducer(judged, vote("openai", "success", "Yes"))).toBe(judged);
    const again = decisionRunReducer(judged, start);
    expect(again.refusal).toBeNull();
    expect(statuses(again)).toEqual({ openai: "pending", gemini: "pending", claude: "pending" });
  });
});
