import { useMutation } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import type { Suggestion } from "@sd/contracts";
import { toast } from "../ui/toast";
import { newSuggestions } from "./choices";
import { suggestionsErrorText } from "./decision-errors";
import { INPUT_TOAST } from "./input-toasts";
import { PLAYGROUND_TEXT } from "./messages";
import { requestSuggestions } from "./playground-api";

export interface SuggestionInput {
  question: string;
  images: readonly string[];
  choices: readonly string[];
}

export interface Suggestions {
  suggestions: readonly Suggestion[];
  loading: boolean;
  fetch(input: SuggestionInput): Promise<void>;
  /** Removes one suggestion from the list (it was picked). */
  take(category: string): void;
  clear(): void;
}

/** AI-suggested choices for the question, without those already chosen. */
export function useSuggestions(): Suggestions {
  const [suggestions, setSuggestions] = useState<readonly Suggestion[]>([]);
  // The request is server state (TanStack Query); the list is the page's: picking and adding edit it.
  const { mutateAsync, isPending } = useMutation({ mutationFn: requestSuggestions });

  const fetch = useCallback(
    async ({ question, images, choices }: SuggestionInput) => {
      if (question.trim() === "") {
        toast.error(PLAYGROUND_TEXT.suggestionQuestionRequired.title, undefined, { id: INPUT_TOAST.question });
        return;
      }
      try {
        const fresh = newSuggestions(await mutateAsync({ question: question.trim(), images, existing_choices: choices }), choices);
        setSuggestions(fresh);
        if (fresh.length === 0) toast.info(PLAYGROUND_TEXT.noNewSuggestions.title, PLAYGROUND_TEXT.noNewSuggestions.description);
      } catch (error) {
        toast.error(PLAYGROUND_TEXT.suggestionsFailedTitle, suggestionsErrorText(error));
      }
    },
    [mutateAsync],
  );

  const take = useCallback((category: string) => {
    setSuggestions((list) => list.filter((s) => s.category !== category));
  }, []);
  const clear = useCallback(() => setSuggestions([]), []);

  return { suggestions, loading: isPending, fetch, take, clear };
}
