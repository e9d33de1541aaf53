import { z } from "zod";
import {
  PRESET_LIMITS,
  PRESET_MESSAGES,
  PresetCreateSchema,
  PresetDeleteSchema,
  PresetListSchema,
  PresetSchema,
  PresetUpdateSchema,
  type Preset,
} from "../index";
import { json, one, error, unauthorized } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- panel presets

export const EXAMPLE_PRESET_ID = "3f2a1b0c-9d8e-4f7a-b6c5-d4e3f2a1b0c9";

export const examplePreset: Preset = {
  id: EXAMPLE_PRESET_ID,
  name: "Fast triage",
  settings: { ensemble_mode: "weighted_voting", models: ["openai", "gemini", "claude"], early_quorum: true },
  created_at: "2025-09-08T10:00:00.000Z",
  updated_at: "2025-09-08T10:00:00.000Z",
};

const presetIdParam = z.object({ id: z.string().meta({ description: "The preset's id.", example: EXAMPLE_PRESET_ID }) });
const presetNotFound = error("No preset with this id is the caller's.", one("Unknown id", { detail: PRESET_MESSAGES.notFound }));
const nameTaken = error("The caller already has a preset with this name.", one("Name taken", { detail: PRESET_MESSAGES.nameTaken("Fast triage") }));
const badPreset = (extra: Record<string, { summary: string; value: unknown }> = {}) =>
  error("The body is invalid, or names a model that is not configured: `detail` says what to fix.", {
    nameRequired: { summary: "No name", value: { detail: PRESET_MESSAGES.nameRequired } },
    unknownModel: { summary: "A model that is not configured", value: { detail: "Unknown model: llama9. Choose from openai, gemini, claude." } },
    ...extra,
  });

export const presetEndpoints = [
  defineEndpoint({
    method: "get",
    path: "/api/presets",
    tag: "presets",
    operationId: "listPresets",
    summary: "List my panel presets",
    description: "The caller's presets, by name.",
    access: "bearer",
    responses: { 200: { description: "The caller's presets.", body: json(PresetListSchema, one("One preset", [examplePreset])) }, 401: unauthorized },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/presets",
    tag: "presets",
    operationId: "createPreset",
    summary: "Save a panel preset",
    description: `Saves named ensemble settings. Names are trimmed, 1 to ${PRESET_LIMITS.maxNameLength} characters, and unique among the caller's presets; a user keeps at most ${PRESET_LIMITS.maxPerUser}. The models and judge must be configured ones (GET /api/providers).`,
    access: "bearer",
    body: json(PresetCreateSchema, one("Weighted vote of three models with early quorum", { name: examplePreset.name, settings: examplePreset.settings })),
    responses: {
      201: { description: "The saved preset.", body: json(PresetSchema, one("Saved", examplePreset)) },
      400: badPreset({ tooMany: { summary: "Too many presets", value: { detail: PRESET_MESSAGES.tooMany } } }),
      401: unauthorized,
      409: nameTaken,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/presets/{id}",
    tag: "presets",
    operationId: "getPreset",
    summary: "Get one of my panel presets",
    access: "bearer",
    params: presetIdParam,
    responses: { 200: { description: "The preset.", body: json(PresetSchema, one("Found", examplePreset)) }, 401: unauthorized, 404: presetNotFound },
  }),
  defineEndpoint({
    method: "patch",
    path: "/api/presets/{id}",
    tag: "presets",
    operationId: "updatePreset",
    summary: "Rename a panel preset or replace its settings",
    description: "`name` renames the preset; `settings` replace its settings whole. At least one of them.",
    access: "bearer",
    params: presetIdParam,
    body: json(PresetUpdateSchema, {
      rename: { summary: "Rename", value: { name: "Triage" } },
      settings: { summary: "New settings", value: { settings: { ensemble_mode: "judge", judge_model: "openai" } } },
    }),
    responses: {
      200: { description: "The updated preset.", body: json(PresetSchema, one("Renamed", { ...examplePreset, name: "Triage", updated_at: "2025-09-09T08:00:00.000Z" })) },
      400: badPreset({ nothing: { summary: "Nothing to change", value: { detail: PRESET_MESSAGES.nothingToChange } } }),
      401: unauthorized,
      404: presetNotFound,
      409: nameTaken,
    },
  }),
  defineEndpoint({
    method: "delete",
    path: "/api/presets/{id}",
    tag: "presets",
    operationId: "deletePreset",
    summary: "Delete a panel preset",
    description: "A deleted preset can no longer be named by `preset` in POST /v1/ensemble.",
    access: "bearer",
    params: presetIdParam,
    responses: {
      200: { description: "Deleted.", body: json(PresetDeleteSchema, one("Deleted", { success: true, message: PRESET_MESSAGES.deleted })) },
      401: unauthorized,
      404: presetNotFound,
    },
  }),
] as const;
