import type { DecisionHistoryItem } from "@sd/contracts";
import { useMemo, useRef } from "react";
import { categoryOptions } from "./format";

/**
 * The Category filter's options: every category and final decision seen in the decisions loaded
 * since the page opened (for this user), so choosing one category never hides the others.
 */
export function useSeenCategories(userId: string | null, decisions: readonly DecisionHistoryItem[], selected: string): string[] {
  const seen = useRef<{ userId: string | null; categories: Set<string> }>({ userId, categories: new Set() });
  return useMemo(() => {
    if (seen.current.userId !== userId) seen.current = { userId, categories: new Set() };
    for (const category of categoryOptions(decisions)) seen.current.categories.add(category);
    return categoryOptions([{ categories: [...seen.current.categories], final_decision: null }], selected);
  }, [userId, decisions, selected]);
}
