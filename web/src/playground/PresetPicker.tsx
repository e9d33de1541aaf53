import { PRESET_LIMITS, PRESET_MESSAGES } from "@sd/contracts";
import { useId, useState, type KeyboardEvent } from "react";
import { Link } from "react-router";
import { choiceOfPreset, matchingPreset, presetSettingsOf } from "../presets/preset-choice";
import { presetErrorText, useCreatePreset, useOwnPresets } from "../presets/usePresets";
import { Button } from "../ui/button";
import { toast } from "../ui/toast";
import type { EnsembleChoice, ModelCatalog } from "./ensemble-options";

interface PresetPickerProps {
  choice: EnsembleChoice;
  catalog: ModelCatalog;
  onChange: (choice: EnsembleChoice) => void;
}

const control = "block h-10 w-full rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500";

/**
 * The signed-in user's presets above the ensemble settings: picking one sets mode, panel, early
 * quorum, rounds and judge at once; "Save as preset" names the settings shown. The select shows the
 * preset the settings are exactly, and "Custom settings" once anything differs. Signed out, nothing.
 */
export function PresetPicker({ choice, catalog, onChange }: PresetPickerProps) {
  const { userId, presets } = useOwnPresets();
  if (userId === null) return null;
  const list = presets.data ?? [];
  const current = matchingPreset(list, choice, catalog);
  return (
    <div className="space-y-2">
      <PresetSelect
        presets={list}
        value={current?.id ?? ""}
        loading={presets.isPending}
        failed={presets.isError}
        onPick={(id) => {
          const preset = list.find((p) => p.id === id);
          if (preset) onChange(choiceOfPreset(preset.settings));
        }}
      />
      <SavePreset userId={userId} choice={choice} catalog={catalog} saved={current !== null} />
    </div>
  );
}

function PresetSelect({
  presets,
  value,
  loading,
  failed,
  onPick,
}: {
  presets: readonly { id: string; name: string }[];
  value: string;
  loading: boolean;
  failed: boolean;
  onPick: (id: string) => void;
}) {
  const id = useId();
  const hint = failed ? PRESET_MESSAGES.fetchFailed : presets.length === 0 && !loading ? "No presets yet: save the settings below as one." : "Sets the mode and panel below in one step.";
  return (
    <div className="space-y-1">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="text-sm font-medium text-slate-700">
          Preset
        </label>
        <Link to="/settings" className="text-xs text-brand-700 underline-offset-2 hover:underline">
          Manage presets
        </Link>
      </div>
      <select id={id} aria-describedby={`${id}-hint`} value={value} onChange={(event) => onPick(event.target.value)} className={control} disabled={loading || presets.length === 0}>
        <option value="">{loading ? "Loading presets..." : "Custom settings"}</option>
        {presets.map((preset) => (
          <option key={preset.id} value={preset.id}>
            {preset.name}
          </option>
        ))}
      </select>
      <p id={`${id}-hint`} className={failed ? "text-xs text-red-600" : "text-xs text-slate-500"}>
        {hint}
      </p>
    </div>
  );
}

/**
 * "Save as preset", then a name field. It sits inside the playground's form, so it is no form of its
 * own: Enter in the field saves the preset instead of submitting the decision.
 */
function SavePreset({ userId, choice, catalog, saved }: { userId: string; choice: EnsembleChoice; catalog: ModelCatalog; saved: boolean }) {
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState("");
  const create = useCreatePreset(userId);
  const inputId = useId();
  const close = () => {
    setNaming(false);
    setName("");
    create.reset();
  };
  const save = () => {
    if (create.isPending) return;
    create.mutate(
      { name, settings: presetSettingsOf(choice, catalog) },
      {
        onSuccess: (preset) => {
          toast.success(PRESET_MESSAGES.saved, preset.name);
          close();
        },
      },
    );
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      save();
    } else if (event.key === "Escape") {
      event.preventDefault();
      close();
    }
  };

  if (!naming) {
    return (
      <Button variant="secondary" size="sm" onClick={() => setNaming(true)} disabled={saved} title={saved ? "These settings are a preset already." : undefined}>
        Save as preset
      </Button>
    );
  }
  const problem = create.isError ? presetErrorText(create.error, PRESET_MESSAGES.saveFailed) : null;
  return (
    <div className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-2">
      <label htmlFor={inputId} className="block text-sm font-medium text-slate-700">
        Preset name
      </label>
      <input
        id={inputId}
        autoFocus
        value={name}
        maxLength={PRESET_LIMITS.maxNameLength}
        onChange={(event) => {
          setName(event.target.value);
          if (create.isError) create.reset();
        }}
        onKeyDown={onKeyDown}
        aria-invalid={problem !== null}
        aria-describedby={problem ? `${inputId}-error` : undefined}
        className={`${control} aria-[invalid=true]:border-red-500`}
      />
      {problem ? (
        <p id={`${inputId}-error`} className="text-sm text-red-600">
          {problem}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={save} disabled={name.trim() === "" || create.isPending} aria-busy={create.isPending}>
          {create.isPending ? "Saving..." : "Save preset"}
        </Button>
        <Button size="sm" variant="ghost" onClick={close} disabled={create.isPending}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
