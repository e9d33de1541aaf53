import { cn } from "../ui/cn";
import { NO_DECISION } from "./format";

/** The final decision as a badge, or 'No decision' when the models reached none. */
export function DecisionBadge({ decision, className }: { decision: string | null; className?: string }) {
  return (
    <span
      className={cn(
        "inline-flex max-w-full items-center rounded-full px-3 py-1 text-sm font-semibold",
        decision ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-600",
        className,
      )}
      data-testid="final-decision"
    >
      {decision ?? NO_DECISION}
    </span>
  );
}
