import { useQuery } from "@tanstack/react-query";
import { useMemo } from "react";
import type { ModelCatalog } from "./ensemble-options";
import { DEFAULT_CATALOG, providersQuery } from "./playground-api";

/** Every model a panel may name and the defaults, from GET /api/providers; the playground's three until the server says. */
export function usePlaygroundModels(): ModelCatalog {
  const { data } = useQuery(providersQuery);
  return useMemo(
    () =>
      data && data.providers.length > 0
        ? { models: data.providers, defaultPanel: data.default_panel, defaultJudge: data.default_judge, defaultRounds: data.default_rounds }
        : DEFAULT_CATALOG,
    [data],
  );
}
