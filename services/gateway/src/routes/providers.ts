import type { Router } from "express";
import type { ProviderConfig, ProvidersResponse } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { EnsembleDefaults } from "../ensemble-options";
import { EndpointRouter } from "../http/endpoint-router";

/**
 * Every model a request may put on its panel, the default panel and judge, so the playground can
 * offer the choice, label its rows and say when answers are simulated.
 */
export function providerRoutes(deciders: readonly ProviderConfig[], ensemble: EnsembleDefaults): Router {
  const body = providersResponse(deciders, ensemble);
  return new EndpointRouter("/api").mount(ENDPOINTS.listProviders, { handler: () => ({ status: 200, body }) }).router;
}

/** The models and defaults a panel is chosen from (also listed by the MCP server's list_models). */
export function providersResponse(deciders: readonly ProviderConfig[], ensemble: EnsembleDefaults): ProvidersResponse {
  return {
    providers: deciders.map(({ id, label, model, simulated }) => ({ id, label, model, simulated })),
    default_panel: [...ensemble.panel],
    default_judge: ensemble.judge,
    default_rounds: ensemble.rounds,
  };
}
