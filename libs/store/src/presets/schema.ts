import { ENSEMBLE_LIMITS, ENSEMBLE_MODES, PRESET_LIMITS, type PresetSettings } from "@sd/contracts";
import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/**
 * A user's panel preset: named ensemble settings, picked in the playground or named by `preset`
 * in /v1/ensemble. `settings` holds only the options the user set; the others stay the server's
 * defaults when the preset is used.
 */
export interface PresetDocument extends BaseDocument {
  user_id: string;
  name: string;
  settings: PresetSettings;
  created_at: Date;
  updated_at: Date;
}

// Unset options are absent (not null), so a preset's settings read back exactly as they were sent.
const settingsSchema = new Schema<PresetSettings>(
  {
    ensemble_mode: { type: String, enum: [...ENSEMBLE_MODES] },
    models: { type: [String], default: undefined },
    early_quorum: { type: Boolean },
    max_rounds: { type: Number, min: 1, max: ENSEMBLE_LIMITS.maxRounds },
    judge_model: { type: String, maxlength: 100 },
  },
  { _id: false, strict: "throw" },
);

export const presetSchema = new Schema<PresetDocument>(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true, minlength: 1 },
    name: { type: String, required: true, trim: true, minlength: 1, maxlength: PRESET_LIMITS.maxNameLength },
    settings: { type: settingsSchema, default: () => ({}) },
    created_at: { type: Date, required: true },
    updated_at: { type: Date, required: true },
  },
  { collection: "presets", versionKey: false, strict: "throw", id: false, minimize: false },
);
// A name picks one preset of its owner (the playground's list, `preset` in /v1): never two alike.
// The same index serves the owner's list, by name.
presetSchema.index({ user_id: 1, name: 1 }, { unique: true });

export const presetsCollection = defineCollection<PresetDocument>("presets", presetSchema);
