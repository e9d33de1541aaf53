import type { RequestHandler, Router } from "express";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { ModelProvider } from "@sd/providers";
import type { Logger } from "@sd/telemetry";
import { EndpointRouter } from "../http/endpoint-router";
import { suggestCategories } from "../use-cases/suggestions";

export function suggestionRoutes(provider: ModelProvider, rateLimit: RequestHandler, imageBody: RequestHandler, logger: Logger): Router {
  return new EndpointRouter("/api").mount(ENDPOINTS.suggestCategories, {
    before: [rateLimit],
    bodyReader: imageBody,
    handler: async ({ body }) => ({ status: 200, body: await suggestCategories(provider, body, logger) }),
  }).router;
}
