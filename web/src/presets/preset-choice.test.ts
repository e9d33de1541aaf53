import { describe, expect, it } from "vitest";
import type { Preset } from "@sd/contracts";
import { DEFAULT_ENSEMBLE_CHOICE, type ModelCatalog } from "../playground/ensemble-options";
import { choiceOfPreset, matchingPreset, presetSettingsOf, presetSummary } from "./preset-choice";

const catalog: ModelCatalog = {
  models: [
    { id: "openai", label: "GPT-4o", model: "gpt-4o", simulated: false },
    { id: "gemini", label: "Gemini", model: "gemini-2.5-flash", simulated: false },
    { id: "claude", label: "Claude", model: "claude-sonnet-4-6", simulated: false },
    { id: "gpt5", label: "GPT-5", model: "gpt-5", simulated: false },
  ],
  defaultPanel: ["openai", "gemini", "claude"],
  defaultJudge: "gpt5",
  defaultRounds: 3,
};

const preset = (name: string, settings: Preset["settings"]): Preset => ({ id: name, name, settings, created_at: "", updated_at: "" });

describe("panel presets in the playground", () => {
  it("saves what the user sees: the panel written out, and only the chosen mode's options", () => {
    expect(presetSettingsOf(DEFAULT_ENSEMBLE_CHOICE, catalog)).toEqual({ ensemble_mode: "majority_voting", models: ["openai", "gemini", "claude"], early_quorum: false });
    expect(presetSettingsOf({ ...DEFAULT_ENSEMBLE_CHOICE, mode: "judge", earlyQuorum: true, rounds: 5 }, catalog)).toEqual({
      ensemble_mode: "judge",
      models: ["openai", "gemini", "claude"],
      judge_model: "gpt5",
    });
    expect(presetSettingsOf({ ...DEFAULT_ENSEMBLE_CHOICE, mode: "gossip", panel: ["gpt5", "openai"] }, catalog)).toEqual({ ensemble_mode: "gossip", models: ["openai", "gpt5"], max_rounds: 3 });
  });

  it("turns a preset back into the choice, leaving what it does not set to the server's defaults", () => {
    expect(choiceOfPreset({})).toEqual(DEFAULT_ENSEMBLE_CHOICE);
    expect(choiceOfPreset({ ensemble_mode: "weighted_voting", models: ["claude"], early_quorum: true })).toEqual({ mode: "weighted_voting", panel: ["claude"], earlyQuorum: true, rounds: null, judge: null });
  });

  it("names the preset the settings are exactly, whatever the panel's order, and none once anything differs", () => {
    const trio = preset("Trio", { ensemble_mode: "weighted_voting", models: ["gpt5", "openai", "claude"], early_quorum: false });
    const defaults = preset("Defaults", {});
    const presets = [trio, defaults];
    expect(matchingPreset(presets, choiceOfPreset(trio.settings), catalog)).toBe(trio);
    expect(matchingPreset(presets, DEFAULT_ENSEMBLE_CHOICE, catalog)).toBe(defaults);
    expect(matchingPreset(presets, { ...choiceOfPreset(trio.settings), earlyQuorum: true }, catalog)).toBeNull();
    expect(matchingPreset(presets, { ...choiceOfPreset(trio.settings), panel: ["openai", "claude"] }, catalog)).toBeNull();
  });

  it("sums a preset up in one line with the models' labels", () => {
    expect(presetSummary({ ensemble_mode: "weighted_voting", models: ["openai", "claude"], early_quorum: true }, catalog)).toBe("Weighted vote · GPT-4o, Claude · early quorum");
    expect(presetSummary({}, catalog)).toBe("Majority vote · default panel");
    expect(presetSummary({ ensemble_mode: "judge", judge_model: "gpt5", models: ["retired"] }, catalog)).toBe("Judge model · retired · judge GPT-5");
    expect(presetSummary({ ensemble_mode: "gossip", max_rounds: 1 }, catalog)).toBe("Gossip rounds · default panel · up to 1 round");
  });
});
