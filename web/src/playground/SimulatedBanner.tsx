import { Info } from "lucide-react";
import type { ModelInfo } from "./decision-run";

const listFormat = new Intl.ListFormat("en", { style: "long", type: "conjunction" });

/** Says plainly which models' answers are simulated because no API key is configured for them. */
export function SimulatedBanner({ simulated }: { simulated: readonly ModelInfo[] }) {
  if (simulated.length === 0) return null;
  const names = listFormat.format(simulated.map((m) => m.label));
  return (
    <aside
      aria-label="Simulated answers"
      className="mb-6 flex gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <Info className="mt-0.5 size-5 shrink-0" aria-hidden />
      <p>
        <strong className="font-semibold">Answers are simulated.</strong> No API keys are configured for {names}, so{" "}
        {simulated.length === 1 ? "its answers come" : "their answers come"} from the built-in provider emulator, not from the real
        models.
      </p>
    </aside>
  );
}
