import { ENSEMBLE_LIMITS, ENSEMBLE_MODE_LABELS, ENSEMBLE_MODES, type EnsembleMode } from "@sd/contracts";
import { ChevronDown } from "lucide-react";
import { useId, type ReactNode } from "react";
import {
  chosenJudge,
  chosenRounds,
  chosenPanel,
  ENSEMBLE_MODE_HINTS,
  ensembleSummary,
  orderedModels,
  QUORUM_MODES,
  togglePanelModel,
  type EnsembleChoice,
  type ModelCatalog,
} from "./ensemble-options";
import { PresetPicker } from "./PresetPicker";
import { matchingPreset } from "../presets/preset-choice";
import { useOwnPresets } from "../presets/usePresets";

interface EnsembleControlsProps {
  choice: EnsembleChoice;
  catalog: ModelCatalog;
  onChange: (choice: EnsembleChoice) => void;
}

const select =
  "block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500";

function Group({ legend, hint, children }: { legend: string; hint?: string; children: ReactNode }) {
  const hintId = useId();
  return (
    <fieldset className="min-w-0 space-y-2" aria-describedby={hint ? hintId : undefined}>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {children}
    </fieldset>
  );
}

function ModePicker({ mode, onPick }: { mode: EnsembleMode; onPick: (mode: EnsembleMode) => void }) {
  const name = useId();
  return (
    <Group legend="Mode">
      <div className="grid gap-2 sm:grid-cols-2">
        {ENSEMBLE_MODES.map((id) => (
          <label
            key={id}
            className="flex min-w-0 cursor-pointer gap-2 rounded-lg border border-slate-200 p-2 text-sm has-[:checked]:border-brand-500 has-[:checked]:bg-brand-50"
          >
            <input type="radio" name={name} value={id} checked={mode === id} onChange={() => onPick(id)} className="mt-0.5 shrink-0 accent-brand-600" />
            <span className="min-w-0">
              <span className="block font-medium text-slate-900">{ENSEMBLE_MODE_LABELS[id]}</span>
              <span className="block text-xs text-slate-600">{ENSEMBLE_MODE_HINTS[id]}</span>
            </span>
          </label>
        ))}
      </div>
    </Group>
  );
}

function PanelPicker({ choice, catalog, onChange }: EnsembleControlsProps) {
  const picked = new Set(chosenPanel(choice, catalog).map((model) => model.id));
  return (
    <Group legend="Panel" hint="The models asked, one row each; at least one.">
      <ul className="grid gap-1 sm:grid-cols-2">
        {orderedModels(catalog).map((model) => (
          <li key={model.id} className="min-w-0">
            <label className="flex min-w-0 cursor-pointer items-center gap-2 rounded-md px-1 py-1 text-sm text-slate-800 hover:bg-slate-50">
              <input
                type="checkbox"
                checked={picked.has(model.id)}
                onChange={(event) => onChange(togglePanelModel(choice, catalog, model.id, event.target.checked))}
                className="shrink-0 accent-brand-600"
              />
              <span className="min-w-0">{model.label}</span>
            </label>
          </li>
        ))}
      </ul>
    </Group>
  );
}

function EarlyQuorumSwitch({ checked, onToggle }: { checked: boolean; onToggle: (checked: boolean) => void }) {
  const hintId = useId();
  return (
    <div className="space-y-1">
      <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-slate-700">
        <input
          type="checkbox"
          role="switch"
          aria-describedby={hintId}
          checked={checked}
          onChange={(event) => onToggle(event.target.checked)}
          className="shrink-0 accent-brand-600"
        />
        Early quorum
      </label>
      <p id={hintId} className="text-xs text-slate-500">
        Answer as soon as the votes still to come cannot change the winner; their calls are cancelled.
      </p>
    </div>
  );
}

function LabelledSelect({ label, hint, value, onChange, children }: { label: string; hint: string; value: string; onChange: (value: string) => void; children: ReactNode }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select id={id} aria-describedby={`${id}-hint`} value={value} onChange={(event) => onChange(event.target.value)} className={select}>
        {children}
      </select>
      <p id={`${id}-hint`} className="text-xs text-slate-500">
        {hint}
      </p>
    </div>
  );
}

const ROUND_CHOICES = Array.from({ length: ENSEMBLE_LIMITS.maxRounds }, (_, i) => i + 1);

/**
 * The ensemble settings of the next decision, collapsed to a one-line summary until opened (a user
 * who never opens it gets the playground as it always was): a signed-in user's presets, the mode,
 * the panel, early quorum (majority and weighted), the gossip rounds (gossip) and the judge (judge).
 */
export function EnsembleControls({ choice, catalog, onChange }: EnsembleControlsProps) {
  // Collapsed, the summary still names the preset the settings are.
  const preset = matchingPreset(useOwnPresets().presets.data ?? [], choice, catalog);
  return (
    <details className="group min-w-0 rounded-lg border border-slate-200">
      <summary className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-3 py-2 text-sm hover:bg-slate-50 [&::-webkit-details-marker]:hidden">
        <span className="font-medium text-slate-700">Ensemble</span>
        <span className="min-w-0 flex-1 text-xs break-words text-slate-500">
          {preset ? <span className="font-medium text-slate-700">{`${preset.name} · `}</span> : null}
          {ensembleSummary(choice, catalog)}
        </span>
        <ChevronDown className="size-4 shrink-0 text-slate-500 transition-transform group-open:rotate-180" aria-hidden />
      </summary>
      <div className="space-y-4 border-t border-slate-200 p-3">
        <PresetPicker choice={choice} catalog={catalog} onChange={onChange} />
        <ModePicker mode={choice.mode} onPick={(mode) => onChange({ ...choice, mode })} />
        <PanelPicker choice={choice} catalog={catalog} onChange={onChange} />
        {QUORUM_MODES.includes(choice.mode) ? (
          <EarlyQuorumSwitch checked={choice.earlyQuorum} onToggle={(earlyQuorum) => onChange({ ...choice, earlyQuorum })} />
        ) : null}
        {choice.mode === "gossip" ? (
          <LabelledSelect
            label="Maximum rounds"
            hint="Gossip rounds, the first included; they stop as soon as the models agree."
            value={String(chosenRounds(choice, catalog))}
            onChange={(value) => onChange({ ...choice, rounds: Number(value) })}
          >
            {ROUND_CHOICES.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </LabelledSelect>
        ) : null}
        {choice.mode === "judge" ? (
          <LabelledSelect
            label="Judge"
            hint="The model that reads the panel's answers and reasons, then picks the category."
            value={chosenJudge(choice, catalog)}
            onChange={(judge) => onChange({ ...choice, judge })}
          >
            {orderedModels(catalog).map((model) => (
              <option key={model.id} value={model.id}>
                {model.label}
              </option>
            ))}
          </LabelledSelect>
        ) : null}
      </div>
    </details>
  );
}
