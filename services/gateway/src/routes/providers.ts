import { Router } from "express";
import type { ProviderConfig, ProvidersResponse } from "@sd/contracts";
import type { EnsembleDefaults } from "../ensemble-options";

/**
 * GET /api/providers: every model a request may put on its panel, the default panel and judge,
 * so the playground can offer the choice, label its rows and say when answers are simulated.
 */
export function providerRoutes(deciders: readonly ProviderConfig[], ensemble: EnsembleDefaults): Router {
  const body: ProvidersResponse = {
    providers: deciders.map(({ id, label, model, simulated }) => ({ id, label, model, simulated })),
    default_panel: [...ensemble.panel],
    default_judge: ensemble.judge,
    default_rounds: ensemble.rounds,
  };
  const router = Router();
  router.get("/providers", (_req, res) => {
    res.json(body);
  });
  return router;
}
