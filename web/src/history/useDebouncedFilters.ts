import { LIMITS } from "@sd/contracts";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { EMPTY_FILTERS, filtersFromSearch, sameSearch, searchWithFilters, type HistoryFilters } from "./history-filters";

export interface DebouncedFilters {
  /** What the filter inputs show. */
  draft: HistoryFilters;
  /** What the list is loaded with, as the URL names it: the draft, 500 ms after its last change (or at once on Apply). */
  applied: HistoryFilters;
  change(patch: Partial<HistoryFilters>): void;
  /** Apply Filters: search the draft now. */
  apply(): void;
  /** Clear Filters: back to every decision, at once. */
  clear(): void;
}

/**
 * The dashboard's filters: the list reloads 500 ms after the last change of any filter, so typing a
 * question sends one request, not one per key. The applied filters live in the URL's query string,
 * so a filtered view can be bookmarked and shared, and survives a reload; each search is a history
 * entry, so Back returns to the previous one.
 */
export function useDebouncedFilters(delayMs: number = LIMITS.historyFilterDebounceMs): DebouncedFilters {
  const [params, setParams] = useSearchParams();
  // Only the filters' own parameters: another parameter changing must not count as a new search.
  const search = searchWithFilters(new URLSearchParams(), filtersFromSearch(params)).toString();
  const applied = useMemo(() => filtersFromSearch(new URLSearchParams(search)), [search]);
  const [draft, setDraft] = useState<HistoryFilters>(applied);
  const timer = useRef<number | undefined>(undefined);

  // The URL changed under the inputs (Back, Forward, a link): they show what is now searched. A search
  // this hook wrote equals the draft it came from, which keeps the question as typed (spaces and all).
  const [shownSearch, setShownSearch] = useState(search);
  if (shownSearch !== search) {
    setShownSearch(search);
    if (!sameSearch(draft, applied)) setDraft(applied);
  }

  // The URL as last rendered, read when a search is written: a timer set earlier must not write an
  // older URL, and the pending wait must not restart because the URL changed.
  const url = useRef({ params, setParams });
  url.current = { params, setParams };
  const commit = useCallback((filters: HistoryFilters) => {
    window.clearTimeout(timer.current);
    const { params: current, setParams: write } = url.current;
    const next = searchWithFilters(current, filters);
    // The same search again adds no history entry (react-router would push one).
    if (next.toString() !== current.toString()) write(next);
  }, []);

  useEffect(() => {
    if (sameSearch(draft, applied)) return;
    timer.current = window.setTimeout(() => commit(draft), delayMs);
    return () => window.clearTimeout(timer.current);
    // Only a change of the draft starts the wait (`applied` is read, not watched: applying must not start another).
  }, [draft, delayMs, commit]);

  const change = useCallback((patch: Partial<HistoryFilters>) => setDraft((current) => ({ ...current, ...patch })), []);
  const apply = useCallback(() => commit(draft), [commit, draft]);
  const clear = useCallback(() => {
    setDraft(EMPTY_FILTERS);
    commit(EMPTY_FILTERS);
  }, [commit]);

  return { draft, applied, change, apply, clear };
}
