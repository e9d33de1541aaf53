import { DEFAULT_ENSEMBLE_MODE, ENSEMBLE_MODE_LABELS, type Preset, type PresetSettings } from "@sd/contracts";
import { chosenJudge, chosenPanel, chosenRounds, QUORUM_MODES, type EnsembleChoice, type ModelCatalog } from "../playground/ensemble-options";

/**
 * The settings a preset saves from the playground: what the user sees, written out (the panel's
 * models by id, not "the default panel"), so the preset stays the same panel when the server's
 * defaults change. Options of another mode than the chosen one are left out.
 */
export function presetSettingsOf(choice: EnsembleChoice, catalog: ModelCatalog): PresetSettings {
  const settings: PresetSettings = { ensemble_mode: choice.mode, models: chosenPanel(choice, catalog).map((model) => model.id) };
  if (QUORUM_MODES.includes(choice.mode)) settings.early_quorum = choice.earlyQuorum;
  if (choice.mode === "gossip") settings.max_rounds = chosenRounds(choice, catalog);
  if (choice.mode === "judge") settings.judge_model = chosenJudge(choice, catalog);
  return settings;
}

/** The playground's choice a preset's settings make; what the preset leaves out is the server's default. */
export function choiceOfPreset(settings: PresetSettings): EnsembleChoice {
  return {
    mode: settings.ensemble_mode ?? DEFAULT_ENSEMBLE_MODE,
    panel: settings.models ?? null,
    earlyQuorum: settings.early_quorum ?? false,
    rounds: settings.max_rounds ?? null,
    judge: settings.judge_model ?? null,
  };
}

const sameSettings = (a: PresetSettings, b: PresetSettings) =>
  a.ensemble_mode === b.ensemble_mode &&
  a.early_quorum === b.early_quorum &&
  a.max_rounds === b.max_rounds &&
  a.judge_model === b.judge_model &&
  a.models?.length === b.models?.length &&
  (a.models ?? []).every((id) => b.models?.includes(id));

/** The preset the current choice is exactly (compared as the playground would save it), or null once the user changed anything. */
export function matchingPreset(presets: readonly Preset[], choice: EnsembleChoice, catalog: ModelCatalog): Preset | null {
  const current = presetSettingsOf(choice, catalog);
  return presets.find((preset) => sameSettings(presetSettingsOf(choiceOfPreset(preset.settings), catalog), current)) ?? null;
}

/** A preset's settings in one line, e.g. "Weighted vote · openai, claude · early quorum". */
export function presetSummary(settings: PresetSettings, catalog: ModelCatalog): string {
  const labels = new Map(catalog.models.map((model) => [model.id, model.label]));
  const parts: string[] = [ENSEMBLE_MODE_LABELS[settings.ensemble_mode ?? DEFAULT_ENSEMBLE_MODE]];
  parts.push(settings.models ? settings.models.map((id) => labels.get(id) ?? id).join(", ") : "default panel");
  if (settings.early_quorum) parts.push("early quorum");
  if (settings.max_rounds !== undefined) parts.push(`up to ${settings.max_rounds} ${settings.max_rounds === 1 ? "round" : "rounds"}`);
  if (settings.judge_model !== undefined) parts.push(`judge ${labels.get(settings.judge_model) ?? settings.judge_model}`);
  return parts.join(" · ");
}
