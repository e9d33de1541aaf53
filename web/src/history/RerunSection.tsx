import { ENSEMBLE_MODE_LABELS, ENSEMBLE_MODES, type DecisionLink, type EnsembleMode } from "@sd/contracts";
import { RotateCcw } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { Button } from "../ui/button";
import { DetailSection } from "./DetailSection";
import { formatLocalTime, NO_DECISION } from "./format";
import type { RerunControl } from "./CompareSection";

const control = "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500";

/** The decision's re-runs, newest first, each a link to its page. */
function RerunLinks({ reruns }: { reruns: readonly DecisionLink[] }) {
  if (reruns.length === 0) return null;
  return (
    <div className="mt-5">
      <h3 className="mb-2 text-sm font-semibold text-slate-700">Re-runs of this decision</h3>
      <ul className="space-y-1 text-sm" aria-label="Re-runs of this decision">
        {reruns.map((rerun) => (
          <li key={rerun.id} className="[overflow-wrap:anywhere]">
            <Link to={`/decision/${encodeURIComponent(rerun.id)}`} className="font-medium text-brand-700 underline">
              {ENSEMBLE_MODE_LABELS[rerun.ensemble_mode]}: {rerun.final_decision ?? NO_DECISION}
            </Link>{" "}
            <span className="text-slate-500">
              · <time dateTime={rerun.timestamp}>{formatLocalTime(rerun.timestamp)}</time>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * Re-run: ask the models again on the same question, categories and images with another mode or
 * panel, as a new decision linked to this one; the page of the new decision opens when it is made.
 */
export function RerunSection({
  models,
  mode,
  panel,
  reruns,
  rerun,
  error,
}: {
  /** The models a panel may name (from the page's GET /api/providers: a second observer would refetch a failed list in a loop). */
  models: readonly { id: string; label: string }[];
  mode: EnsembleMode;
  panel: readonly string[];
  reruns: readonly DecisionLink[];
  rerun: RerunControl;
  error: string | null;
}) {
  const [chosenMode, setMode] = useState<EnsembleMode>(mode);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(panel));
  const modeId = useId();
  const toggle = (id: string) =>
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The models in the order the server lists them, as the playground's rows.
    rerun.run({ ensemble_mode: chosenMode, models: models.map((m) => m.id).filter((id) => chosen.has(id)) });
  };
  return (
    <DetailSection title="Re-run">
      <form onSubmit={submit} className="space-y-4" aria-label="Re-run this decision">
        <p className="text-sm text-slate-600">Ask the models again with another mode or panel. The answer is a new decision, linked to this one.</p>
        <div className="max-w-xs space-y-1">
          <label htmlFor={modeId} className="block text-sm font-medium text-slate-700">
            Mode
          </label>
          <select id={modeId} className={control} value={chosenMode} onChange={(event) => setMode(event.target.value as EnsembleMode)}>
            {ENSEMBLE_MODES.map((option) => (
              <option key={option} value={option}>
                {ENSEMBLE_MODE_LABELS[option]}
              </option>
            ))}
          </select>
        </div>
        <fieldset>
          <legend className="mb-1 text-sm font-medium text-slate-700">Panel</legend>
          <div className="grid gap-1 sm:grid-cols-2">
            {models.map((model) => (
              <label key={model.id} className="flex min-w-0 items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" className="size-4 shrink-0" checked={chosen.has(model.id)} onChange={() => toggle(model.id)} />
                <span className="min-w-0 [overflow-wrap:anywhere]">{model.label}</span>
              </label>
            ))}
          </div>
        </fieldset>
        {error ? (
          <p role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <Button type="submit" disabled={rerun.pending || chosen.size === 0 || models.length === 0}>
          <RotateCcw className="size-4" aria-hidden />
          {rerun.pending ? "Re-running..." : "Re-run decision"}
        </Button>
      </form>
      <RerunLinks reruns={reruns} />
    </DetailSection>
  );
}
