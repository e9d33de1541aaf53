import type { RequestHandler, Router } from "express";
import { PRESET_MESSAGES } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { signedInUser } from "../auth";
import { EndpointRouter } from "../http/endpoint-router";
import type { PresetUseCases } from "../use-cases/presets";

/** The signed-in user's panel presets (bearer); every one is the caller's own. */
export function presetRoutes(presets: PresetUseCases, requireUser: RequestHandler): Router {
  return new EndpointRouter("/api", { bearer: requireUser })
    .mount(ENDPOINTS.listPresets, {
      handler: async ({ res }) => ({ status: 200, body: await presets.list(signedInUser(res).userId) }),
    })
    .mount(ENDPOINTS.createPreset, {
      handler: async ({ body, res }) => ({ status: 201, body: await presets.create(signedInUser(res).userId, body) }),
    })
    .mount(ENDPOINTS.getPreset, {
      handler: async ({ params, res }) => ({ status: 200, body: await presets.get(signedInUser(res).userId, params.id) }),
    })
    .mount(ENDPOINTS.updatePreset, {
      handler: async ({ params, body, res }) => ({ status: 200, body: await presets.update(signedInUser(res).userId, params.id, body) }),
    })
    .mount(ENDPOINTS.deletePreset, {
      handler: async ({ params, res }) => {
        await presets.delete(signedInUser(res).userId, params.id);
        return { status: 200, body: { success: true as const, message: PRESET_MESSAGES.deleted } };
      },
    }).router;
}
