import { Router } from "express";
import type { ProviderConfig, ProvidersResponse } from "@sd/contracts";

/** GET /api/providers: the models a decision asks, so the playground can label its rows and say when answers are simulated. */
export function providerRoutes(deciders: readonly ProviderConfig[]): Router {
  const body: ProvidersResponse = {
    providers: deciders.map(({ id, label, model, simulated }) => ({ id, label, model, simulated })),
  };
  const router = Router();
  router.get("/providers", (_req, res) => {
    res.json(body);
  });
  return router;
}
