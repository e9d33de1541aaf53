import type { Suggestion } from "@sd/contracts";
import { LoaderCircle, Plus, Sparkles } from "lucide-react";
import { useId } from "react";
import { Button } from "../ui/button";
import { formatConfidence } from "./choices";

interface AiSuggestionsProps {
  suggestions: readonly Suggestion[];
  loading: boolean;
  onRequest: () => void;
  onPick: (suggestion: Suggestion) => void;
}

/** Asks a model for candidate choices; each is shown with its confidence and added when picked. */
export function AiSuggestions({ suggestions, loading, onRequest, onPick }: AiSuggestionsProps) {
  const headingId = useId();
  return (
    <div className="space-y-3">
      <Button variant="secondary" size="sm" onClick={onRequest} disabled={loading} aria-busy={loading}>
        {loading ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : <Sparkles className="size-4" aria-hidden />}
        AI Suggestions
      </Button>
      {suggestions.length > 0 ? (
        <div className="space-y-2">
          <p id={headingId} className="text-xs text-slate-500">
            Suggested choices: pick one to add it.
          </p>
          <ul aria-labelledby={headingId} className="flex flex-wrap gap-2">
            {suggestions.map((suggestion) => (
              <li key={suggestion.category} className="max-w-full">
                <button
                  type="button"
                  onClick={() => onPick(suggestion)}
                  className="inline-flex max-w-full items-center gap-1.5 rounded-full border border-dashed border-brand-500 px-3 py-1 text-left text-sm text-brand-700 hover:bg-brand-50"
                >
                  <Plus className="size-3.5 shrink-0" aria-hidden />
                  <span className="min-w-0">{suggestion.category}</span>
                  <span className="shrink-0 rounded-full bg-brand-100 px-1.5 text-xs font-medium">{formatConfidence(suggestion.confidence)}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
