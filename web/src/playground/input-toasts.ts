import { useEffect } from "react";
import { toast } from "../ui/toast";

/**
 * Ids of the toasts that complain about one input. The submit's 'Question required' and the
 * suggestions' 'Question is required' share one: both go as soon as the question is valid.
 */
export const INPUT_TOAST = {
  question: "playground-question",
  choices: "playground-choices",
  panel: "playground-panel",
} as const;

/** Dismisses the toast `id` as soon as its input is valid, so no complaint outlives its cause. */
export function useDismissWhenValid(id: string, valid: boolean): void {
  useEffect(() => {
    if (valid) toast.dismiss(id);
  }, [id, valid]);
}
