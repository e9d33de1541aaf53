import { LIMITS } from "@sd/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { EMPTY_FILTERS, type HistoryFilters } from "./history-filters";

export interface DebouncedFilters {
  /** What the filter inputs show. */
  draft: HistoryFilters;
  /** What the list is loaded with: the draft, 500 ms after its last change (or at once on Apply). */
  applied: HistoryFilters;
  change(patch: Partial<HistoryFilters>): void;
  /** Apply Filters: search the draft now. */
  apply(): void;
  /** Clear Filters: back to every decision, at once. */
  clear(): void;
}

/**
 * The dashboard's filters: the list reloads 500 ms after the last change
 * of any filter, so typing a question sends one request, not one per key.
 */
export function useDebouncedFilters(delayMs: number = LIMITS.historyFilterDebounceMs): DebouncedFilters {
  const [draft, setDraft] = useState<HistoryFilters>(EMPTY_FILTERS);
  const [applied, setApplied] = useState<HistoryFilters>(EMPTY_FILTERS);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    if (draft === applied) return;
    timer.current = window.setTimeout(() => setApplied(draft), delayMs);
    return () => window.clearTimeout(timer.current);
    // Only a change of the draft starts the wait (`applied` is read, not watched: applying must not start another).
  }, [draft, delayMs]);

  const change = useCallback((patch: Partial<HistoryFilters>) => setDraft((current) => ({ ...current, ...patch })), []);
  const apply = useCallback(() => {
    window.clearTimeout(timer.current);
    setApplied(draft);
  }, [draft]);
  const clear = useCallback(() => {
    window.clearTimeout(timer.current);
    setDraft(EMPTY_FILTERS);
    setApplied(EMPTY_FILTERS);
  }, []);

  return { draft, applied, change, apply, clear };
}
