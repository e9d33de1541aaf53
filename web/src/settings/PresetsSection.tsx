import { PRESET_LIMITS, PRESET_MESSAGES, type Preset } from "@sd/contracts";
import { SlidersHorizontal } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import type { ModelCatalog } from "../playground/ensemble-options";
import { usePlaygroundModels } from "../playground/usePlaygroundModels";
import { presetSummary } from "../presets/preset-choice";
import { presetErrorText, useDeletePreset, usePresets, useUpdatePreset } from "../presets/usePresets";
import { Button } from "../ui/button";
import { ConfirmDeleteDialog } from "../ui/confirm-delete-dialog";
import { toast } from "../ui/toast";
import { SettingsSection } from "./SettingsSection";

const input = "block h-9 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 aria-[invalid=true]:border-red-500";

/** One preset: its name and settings, renamed in place. */
function PresetRow({ userId, preset, catalog, onDelete }: { userId: string; preset: Preset; catalog: ModelCatalog; onDelete: (preset: Preset) => void }) {
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(preset.name);
  const update = useUpdatePreset(userId);
  const id = useId();
  const cancel = () => {
    setEditing(false);
    setName(preset.name);
    update.reset();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === preset.name) return cancel();
    update.mutate(
      { id: preset.id, change: { name } },
      {
        onSuccess: (renamed) => {
          toast.success(PRESET_MESSAGES.renamed, renamed.name);
          setEditing(false);
          update.reset();
        },
      },
    );
  };
  const problem = update.isError ? presetErrorText(update.error, PRESET_MESSAGES.renameFailed) : null;

  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between">
      {editing ? (
        <form onSubmit={submit} className="min-w-0 flex-1 space-y-2">
          <label htmlFor={id} className="sr-only">
            {`New name for ${preset.name}`}
          </label>
          <input
            id={id}
            autoFocus
            value={name}
            maxLength={PRESET_LIMITS.maxNameLength}
            onChange={(event) => {
              setName(event.target.value);
              if (update.isError) update.reset();
            }}
            onKeyDown={(event) => {
              if (event.key === "Escape") cancel();
            }}
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-error` : undefined}
            className={input}
          />
          {problem ? (
            <p id={`${id}-error`} className="text-sm text-red-600">
              {problem}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" disabled={name.trim() === "" || update.isPending} aria-busy={update.isPending}>
              {update.isPending ? "Saving..." : "Save name"}
            </Button>
            <Button size="sm" variant="ghost" onClick={cancel} disabled={update.isPending}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="min-w-0 flex-1">
          <p className="font-medium break-words text-slate-900">{preset.name}</p>
          <p className="text-sm break-words text-slate-600">{presetSummary(preset.settings, catalog)}</p>
        </div>
      )}
      {editing ? null : (
        <div className="flex shrink-0 gap-2">
          <Button size="sm" variant="secondary" onClick={() => setEditing(true)} aria-label={`Rename ${preset.name}`}>
            Rename
          </Button>
          <Button size="sm" variant="ghost" className="text-red-700 hover:bg-red-50" onClick={() => onDelete(preset)} aria-label={`Delete ${preset.name}`}>
            Delete
          </Button>
        </div>
      )}
    </li>
  );
}

function DeletePresetDialog({ userId, preset, onClose }: { userId: string; preset: Preset | null; onClose: () => void }) {
  const remove = useDeletePreset(userId);
  return (
    <ConfirmDeleteDialog
      open={preset !== null}
      title="Delete preset"
      description={preset ? `"${preset.name}" disappears from the playground, and API calls naming it are refused.` : undefined}
      pending={remove.isPending}
      onCancel={() => {
        remove.reset();
        onClose();
      }}
      onConfirm={() => {
        if (!preset) return;
        remove.mutate(preset.id, {
          onSuccess: () => {
            toast.success(PRESET_MESSAGES.deleted, preset.name);
            onClose();
          },
          onError: () => toast.error("Error", PRESET_MESSAGES.deleteFailed),
          onSettled: () => remove.reset(),
        });
      }}
    />
  );
}

/** Panel presets on /settings: the user's named ensemble settings, renamed or deleted here, saved and picked in the playground. */
export function PresetsSection({ userId }: { userId: string }) {
  const presets = usePresets(userId);
  const catalog = usePlaygroundModels();
  const [deleting, setDeleting] = useState<Preset | null>(null);
  return (
    <SettingsSection
      title="Panel presets"
      description={
        <>
          Save the ensemble settings in the <Link to="/playground" className="text-brand-700 underline">playground</Link> to pick them again in one step, or name one with{" "}
          <code className="font-mono">preset</code> in <code className="font-mono">POST /v1/ensemble</code>.
        </>
      }
    >
      {presets.data && presets.data.length > 0 ? (
        <ul className="divide-y divide-slate-200" aria-label="Your presets">
          {presets.data.map((preset) => (
            <PresetRow key={preset.id} userId={userId} preset={preset} catalog={catalog} onDelete={setDeleting} />
          ))}
        </ul>
      ) : presets.data ? (
        <div className="rounded-lg border border-dashed border-slate-300 p-8 text-center">
          <SlidersHorizontal className="mx-auto size-8 text-slate-400" aria-hidden />
          <p className="mt-3 text-slate-700">{PRESET_MESSAGES.emptyState}</p>
        </div>
      ) : presets.isError ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <p>{PRESET_MESSAGES.fetchFailed}</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void presets.refetch()}>
            Try again
          </Button>
        </div>
      ) : (
        <div role="status" aria-label="Loading presets" className="h-14 animate-pulse rounded-md bg-slate-100" />
      )}
      <DeletePresetDialog userId={userId} preset={deleting} onClose={() => setDeleting(null)} />
    </SettingsSection>
  );
}
