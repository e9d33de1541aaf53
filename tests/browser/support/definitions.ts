import type { Locator } from "playwright-core";

/** The value of one labelled row of a definition list (Decision Metadata, a model's Response, ...). */
export const definition = (scope: Locator, term: string): Locator =>
  scope.locator("dt", { hasText: new RegExp(`^${term}$`) }).locator("xpath=following-sibling::dd[1]");

/** The terms of the definition lists in `scope`, in order. */
export const terms = (scope: Locator): Promise<string[]> => scope.locator("dt").allTextContents();
