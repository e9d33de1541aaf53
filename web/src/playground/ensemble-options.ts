import { DEFAULT_ENSEMBLE_MODE, ENSEMBLE_MODE_LABELS, type EnsembleMode, type EnsembleOptions } from "@sd/contracts";
import type { ModelInfo } from "./decision-run";

/** What GET /api/providers offers: every model a panel may name, and the defaults of a request that names none. */
export interface ModelCatalog {
  models: readonly ModelInfo[];
  defaultPanel: readonly string[];
  defaultJudge: string;
  defaultRounds: number;
}

/** One line per mode, under its name in the playground. */
export const ENSEMBLE_MODE_HINTS: Readonly<Record<EnsembleMode, string>> = {
  majority_voting: "One vote per model; the answer with the most votes wins.",
  weighted_voting: "Each vote counts with its model's weight; the heaviest answer wins.",
  judge: "The panel votes, then a judge model reads every answer and reason and picks one.",
  gossip: "Models see each other's answers and may change theirs, round after round, until they agree.",
};

/** The modes where early quorum applies (judge and gossip need every answer). */
export const QUORUM_MODES: readonly EnsembleMode[] = ["majority_voting", "weighted_voting"];

/**
 * The user's ensemble settings. `panel` and `judge` are null until the user picks: the server's
 * defaults then apply, whatever GET /api/providers says they are (even if it answers late).
 */
export interface EnsembleChoice {
  mode: EnsembleMode;
  /** The chosen model ids, or null for the default panel. */
  panel: readonly string[] | null;
  earlyQuorum: boolean;
  /** Gossip: the most rounds, the first included; null for the server's default. */
  rounds: number | null;
  /** Judge: the chosen judge's id, or null for the default judge. */
  judge: string | null;
}

export const DEFAULT_ENSEMBLE_CHOICE: EnsembleChoice = {
  mode: DEFAULT_ENSEMBLE_MODE,
  panel: null,
  earlyQuorum: false,
  rounds: null,
  judge: null,
};

/** The models in the order the panel picker lists them and rows show them: the default panel first, then the others as configured. */
export function orderedModels(catalog: ModelCatalog): ModelInfo[] {
  const byId = new Map(catalog.models.map((model) => [model.id, model]));
  const first = catalog.defaultPanel.flatMap((id) => byId.get(id) ?? []);
  const rest = catalog.models.filter((model) => !catalog.defaultPanel.includes(model.id));
  return [...first, ...rest];
}

/** The models a decision will ask, in row order. */
export function chosenPanel(choice: EnsembleChoice, catalog: ModelCatalog): ModelInfo[] {
  const picked = new Set(choice.panel ?? catalog.defaultPanel);
  return orderedModels(catalog).filter((model) => picked.has(model.id));
}

/** Gossip's most rounds (the server's default until the user picks). */
export function chosenRounds(choice: EnsembleChoice, catalog: ModelCatalog): number {
  return choice.rounds ?? catalog.defaultRounds;
}

/** The judge of judge mode (the default one until the user picks another). */
export function chosenJudge(choice: EnsembleChoice, catalog: ModelCatalog): string {
  return choice.judge ?? catalog.defaultJudge;
}

/** The choice with one model added to or taken off the panel. */
export function togglePanelModel(choice: EnsembleChoice, catalog: ModelCatalog, id: string, checked: boolean): EnsembleChoice {
  const current = chosenPanel(choice, catalog).map((model) => model.id);
  const next = checked ? (current.includes(id) ? current : [...current, id]) : current.filter((other) => other !== id);
  return { ...choice, panel: next };
}

/** Why the chosen settings cannot be sent, or null when they can. */
export function ensembleProblem(choice: EnsembleChoice, catalog: ModelCatalog): string | null {
  return chosenPanel(choice, catalog).length === 0 ? "Choose at least one model." : null;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id) => b.includes(id));

/**
 * The ensemble options of the decision request: only those the user changed from the defaults,
 * so a request with the defaults is exactly the request the playground sent before modes existed.
 * Options of another mode than the chosen one are never sent.
 */
export function ensembleRequestOptions(choice: EnsembleChoice, catalog: ModelCatalog): EnsembleOptions {
  const options: EnsembleOptions = {};
  if (choice.mode !== DEFAULT_ENSEMBLE_MODE) options.ensemble_mode = choice.mode;
  const panel = chosenPanel(choice, catalog).map((model) => model.id);
  if (!sameSet(panel, catalog.defaultPanel)) options.models = panel;
  if (choice.earlyQuorum && QUORUM_MODES.includes(choice.mode)) options.early_quorum = true;
  const rounds = chosenRounds(choice, catalog);
  if (choice.mode === "gossip" && rounds !== catalog.defaultRounds) options.max_rounds = rounds;
  const judge = chosenJudge(choice, catalog);
  if (choice.mode === "judge" && judge !== catalog.defaultJudge) options.judge_model = judge;
  return options;
}

/** The collapsed section's one-line summary, e.g. "Majority vote · 3 models". */
export function ensembleSummary(choice: EnsembleChoice, catalog: ModelCatalog): string {
  const count = chosenPanel(choice, catalog).length;
  const parts = [ENSEMBLE_MODE_LABELS[choice.mode], count === 1 ? "1 model" : `${count} models`];
  if (choice.earlyQuorum && QUORUM_MODES.includes(choice.mode)) parts.push("early quorum");
  const rounds = chosenRounds(choice, catalog);
  if (choice.mode === "gossip") parts.push(`up to ${rounds} ${rounds === 1 ? "round" : "rounds"}`);
  return parts.join(" · ");
}
