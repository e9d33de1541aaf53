import { LIMITS, type Suggestion } from "@sd/contracts";
import { PLAYGROUND_TEXT, type ToastText } from "./messages";

/**
 * The choices with `raw` added: trimmed, and ignored when empty or an exact duplicate.
 * Returns the same array when nothing was added.
 */
export function addChoice(choices: readonly string[], raw: string): readonly string[] {
  const choice = raw.trim();
  if (choice === "" || choices.includes(choice)) return choices;
  return [...choices, choice];
}

export function removeChoice(choices: readonly string[], choice: string): readonly string[] {
  return choices.filter((c) => c !== choice);
}

const comparable = (text: string): string => text.trim().toLowerCase();

/** Suggestions that are not already a choice (compared case-insensitively), first occurrence of each. */
export function newSuggestions(suggestions: readonly Suggestion[], choices: readonly string[]): Suggestion[] {
  const taken = new Set(choices.map(comparable));
  const fresh: Suggestion[] = [];
  for (const suggestion of suggestions) {
    const key = comparable(suggestion.category);
    if (key === "" || taken.has(key)) continue;
    taken.add(key);
    fresh.push({ ...suggestion, category: suggestion.category.trim() });
  }
  return fresh;
}

/** What is wrong with the question, or null when it can be asked. */
export const questionProblem = (question: string): ToastText | null => (question.trim() === "" ? PLAYGROUND_TEXT.questionRequired : null);

/** What is wrong with the choices, or null when there are enough. */
export const choicesProblem = (choices: readonly string[]): ToastText | null => (choices.length < LIMITS.minCategories ? PLAYGROUND_TEXT.categoriesRequired : null);

/** Why a decision cannot be requested yet, or null when it can. */
export function decisionInputProblem(question: string, choices: readonly string[]): ToastText | null {
  return questionProblem(question) ?? choicesProblem(choices);
}

/** A 0-1 confidence as a whole percent, e.g. 0.856 -> "86%". */
export function formatConfidence(confidence: number): string {
  const clamped = Math.min(1, Math.max(0, confidence));
  return `${Math.round(clamped * 100)}%`;
}
