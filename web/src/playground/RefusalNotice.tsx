import { Clock } from "lucide-react";
import { Card } from "../ui/card";
import { REFUSAL_TEXT, retryLine, type Refusal } from "./refusal";

/**
 * Why the server turned the decision away (a rate limit, or busy) and when to try again; it stays
 * until the next decision, so the reason does not vanish with a toast.
 */
export function RefusalNotice({ refusal, secondsLeft }: { refusal: Refusal; secondsLeft: number }) {
  const when = retryLine(refusal, secondsLeft);
  return (
    <Card className="border-amber-300 bg-amber-50" data-refusal={refusal.kind}>
      <div role="alert" className="flex items-start gap-3">
        <Clock className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden />
        <div className="min-w-0 space-y-1">
          <h2 className="font-semibold text-amber-900">{refusal.title}</h2>
          <p className="text-sm text-amber-900 [overflow-wrap:anywhere]">{refusal.message}</p>
          <p className="text-sm text-amber-800">{REFUSAL_TEXT.noModelAsked}</p>
        </div>
      </div>
      {/* Outside the alert, so the ticking countdown is not read out every second. */}
      {when ? <p className="mt-2 pl-8 text-sm font-medium text-amber-900 tabular-nums">{when}</p> : null}
    </Card>
  );
}
