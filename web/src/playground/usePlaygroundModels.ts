import { useQuery } from "@tanstack/react-query";
import type { ModelInfo } from "./decision-run";
import { DEFAULT_MODELS, providersQuery } from "./playground-api";

/** The models a decision asks, in row order; the playground's defaults until the server says. */
export function usePlaygroundModels(): { models: readonly ModelInfo[]; simulated: readonly ModelInfo[] } {
  const { data } = useQuery(providersQuery);
  const models = data && data.length > 0 ? data : DEFAULT_MODELS;
  return { models, simulated: models.filter((m) => m.simulated) };
}
