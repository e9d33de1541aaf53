import { describe, expect, it } from "vitest";
import type { ModelInfo } from "./decision-run";
import {
  chosenJudge,
  chosenPanel,
  DEFAULT_ENSEMBLE_CHOICE,
  ensembleProblem,
  ensembleRequestOptions,
  ensembleSummary,
  orderedModels,
  togglePanelModel,
  type EnsembleChoice,
  type ModelCatalog,
} from "./ensemble-options";
import { decisionRequestBody } from "./playground-api";

const model = (id: string): ModelInfo => ({ id, label: id.toUpperCase(), model: id, simulated: false });
/** Configuration order differs from the default panel's, as with PROVIDERS=gpt5,openai,... and PANEL=openai,gemini,claude. */
const CATALOG: ModelCatalog = {
  models: ["gpt5", "openai", "haiku", "gemini", "claude"].map(model),
  defaultPanel: ["openai", "gemini", "claude"],
  defaultJudge: "gpt5",
  defaultRounds: 3,
};
const ids = (models: readonly ModelInfo[]) => models.map((m) => m.id);
const choose = (changes: Partial<EnsembleChoice>): EnsembleChoice => ({ ...DEFAULT_ENSEMBLE_CHOICE, ...changes });

describe("the panel", () => {
  it("lists the default panel first, in its order, then the other models as configured", () => {
    expect(ids(orderedModels(CATALOG))).toEqual(["openai", "gemini", "claude", "gpt5", "haiku"]);
  });

  it("is the default panel until the user picks, then the picked models in list order", () => {
    expect(ids(chosenPanel(DEFAULT_ENSEMBLE_CHOICE, CATALOG))).toEqual(["openai", "gemini", "claude"]);
    const picked = togglePanelModel(togglePanelModel(DEFAULT_ENSEMBLE_CHOICE, CATALOG, "gpt5", true), CATALOG, "gemini", false);
    expect(ids(chosenPanel(picked, CATALOG))).toEqual(["openai", "claude", "gpt5"]);
  });

  it("needs at least one model", () => {
    let choice = DEFAULT_ENSEMBLE_CHOICE;
    for (const id of CATALOG.defaultPanel) choice = togglePanelModel(choice, CATALOG, id, false);
    expect(chosenPanel(choice, CATALOG)).toEqual([]);
    expect(ensembleProblem(choice, CATALOG)).toBe("Choose at least one model.");
    expect(ensembleProblem(DEFAULT_ENSEMBLE_CHOICE, CATALOG)).toBeNull();
  });

  it("follows the server's defaults when they arrive after the page opened, unless the user picked", () => {
    const later: ModelCatalog = { ...CATALOG, defaultPanel: ["gpt5", "haiku"], defaultJudge: "haiku" };
    expect(ids(chosenPanel(DEFAULT_ENSEMBLE_CHOICE, later))).toEqual(["gpt5", "haiku"]);
    expect(chosenJudge(DEFAULT_ENSEMBLE_CHOICE, later)).toBe("haiku");
    expect(chosenJudge(choose({ judge: "claude" }), later)).toBe("claude");
  });
});

describe("ensembleRequestOptions: only what the user changed is sent", () => {
  it("sends nothing for the defaults", () => {
    expect(ensembleRequestOptions(DEFAULT_ENSEMBLE_CHOICE, CATALOG)).toEqual({});
  });

  it("sends nothing for a panel changed and changed back, in whatever order it was picked", () => {
    const back = togglePanelModel(togglePanelModel(DEFAULT_ENSEMBLE_CHOICE, CATALOG, "openai", false), CATALOG, "openai", true);
    expect(back.panel).not.toBeNull();
    expect(ensembleRequestOptions(back, CATALOG)).toEqual({});
  });

  it("sends the mode and a changed panel, in row order", () => {
    const choice = togglePanelModel(choose({ mode: "weighted_voting" }), CATALOG, "gpt5", true);
    expect(ensembleRequestOptions(choice, CATALOG)).toEqual({ ensemble_mode: "weighted_voting", models: ["openai", "gemini", "claude", "gpt5"] });
  });

  it("sends early quorum only when switched on, and only in majority and weighted modes", () => {
    expect(ensembleRequestOptions(choose({ earlyQuorum: true }), CATALOG)).toEqual({ early_quorum: true });
    expect(ensembleRequestOptions(choose({ earlyQuorum: true, mode: "weighted_voting" }), CATALOG)).toEqual({ ensemble_mode: "weighted_voting", early_quorum: true });
    expect(ensembleRequestOptions(choose({ earlyQuorum: true, mode: "gossip" }), CATALOG)).toEqual({ ensemble_mode: "gossip" });
    expect(ensembleRequestOptions(choose({ earlyQuorum: true, mode: "judge" }), CATALOG)).toEqual({ ensemble_mode: "judge" });
  });

  it("sends gossip rounds only in gossip mode and only when not the default 3", () => {
    expect(ensembleRequestOptions(choose({ mode: "gossip" }), CATALOG)).toEqual({ ensemble_mode: "gossip" });
    expect(ensembleRequestOptions(choose({ mode: "gossip", rounds: 5 }), CATALOG)).toEqual({ ensemble_mode: "gossip", max_rounds: 5 });
    expect(ensembleRequestOptions(choose({ mode: "majority_voting", rounds: 5 }), CATALOG)).toEqual({});
    // The server's default is what the control shows until the user picks; picking it sends nothing.
    expect(ensembleRequestOptions(choose({ mode: "gossip" }), { ...CATALOG, defaultRounds: 4 })).toEqual({ ensemble_mode: "gossip" });
    expect(ensembleRequestOptions(choose({ mode: "gossip", rounds: 3 }), { ...CATALOG, defaultRounds: 4 })).toEqual({ ensemble_mode: "gossip", max_rounds: 3 });
  });

  it("sends the judge only in judge mode and only when not the default judge", () => {
    expect(ensembleRequestOptions(choose({ mode: "judge" }), CATALOG)).toEqual({ ensemble_mode: "judge" });
    expect(ensembleRequestOptions(choose({ mode: "judge", judge: "gpt5" }), CATALOG)).toEqual({ ensemble_mode: "judge" });
    expect(ensembleRequestOptions(choose({ mode: "judge", judge: "haiku" }), CATALOG)).toEqual({ ensemble_mode: "judge", judge_model: "haiku" });
    expect(ensembleRequestOptions(choose({ mode: "gossip", judge: "haiku" }), CATALOG)).toEqual({ ensemble_mode: "gossip" });
  });
});

describe("decisionRequestBody", () => {
  const base = { question: "Ship?", categories: ["Yes", "No"], images: [] as string[], request_id: "r1" };

  it("with the defaults, is byte for byte the body sent before ensemble modes", () => {
    const body = decisionRequestBody({ ...base, ensemble: ensembleRequestOptions(DEFAULT_ENSEMBLE_CHOICE, CATALOG) });
    expect(JSON.stringify(body)).toBe('{"question":"Ship?","categories":["Yes","No"],"request_id":"r1"}');
    const withImages = decisionRequestBody({ ...base, images: ["data:image/jpeg;base64,AA"], ensemble: {} });
    expect(JSON.stringify(withImages)).toBe('{"question":"Ship?","categories":["Yes","No"],"request_id":"r1","images":["data:image/jpeg;base64,AA"]}');
  });

  it("adds the changed options after the specification's fields", () => {
    const body = decisionRequestBody({ ...base, ensemble: { ensemble_mode: "gossip", max_rounds: 2 } });
    expect(body).toEqual({ question: "Ship?", categories: ["Yes", "No"], request_id: "r1", ensemble_mode: "gossip", max_rounds: 2 });
    expect(Object.keys(body)).toEqual(["question", "categories", "request_id", "ensemble_mode", "max_rounds"]);
  });
});

describe("ensembleSummary", () => {
  it("says the mode, the panel's size and what else is on", () => {
    expect(ensembleSummary(DEFAULT_ENSEMBLE_CHOICE, CATALOG)).toBe("Majority vote · 3 models");
    expect(ensembleSummary(choose({ mode: "weighted_voting", earlyQuorum: true, panel: ["gpt5"] }), CATALOG)).toBe("Weighted vote · 1 model · early quorum");
    expect(ensembleSummary(choose({ mode: "gossip", rounds: 2 }), CATALOG)).toBe("Gossip rounds · 3 models · up to 2 rounds");
  });
});
