import { z } from "zod";
import { EnsembleOptionsSchema } from "./ensemble";

/** How long a preset's name may be, and how many presets one user may keep. */
export const PRESET_LIMITS = {
  maxNameLength: 60,
  maxPerUser: 50,
} as const;

/** Texts of panel presets (the endpoints, the playground's picker and the settings list). */
export const PRESET_MESSAGES = {
  nameRequired: "Give the preset a name.",
  nameTooLong: `A preset's name can have at most ${PRESET_LIMITS.maxNameLength} characters.`,
  nameTaken: (name: string) => `You already have a preset named "${name}". Choose another name.`,
  tooMany: `You can keep at most ${PRESET_LIMITS.maxPerUser} presets. Delete one to save another.`,
  notFound: "Preset not found",
  nothingToChange: "Send a new name or new settings.",
  /** `/v1/ensemble` with a `preset` the key's owner has not saved. */
  unknownPreset: (name: string) => `No preset named "${name}": save it on /settings or in the playground first, or leave preset out.`,
  saved: "Preset saved",
  renamed: "Preset renamed",
  deleted: "Preset deleted",
  fetchFailed: "Failed to load your presets",
  saveFailed: "Failed to save the preset",
  renameFailed: "Failed to rename the preset",
  deleteFailed: "Failed to delete the preset",
  emptyState: "No presets yet. Save the playground's ensemble settings as a preset to pick them again in one step.",
} as const;

/** A preset's name: trimmed, 1 to 60 characters; unique among its owner's presets, exactly as written. */
export const PresetNameSchema = z
  .string({ error: PRESET_MESSAGES.nameRequired })
  .trim()
  .min(1, PRESET_MESSAGES.nameRequired)
  .max(PRESET_LIMITS.maxNameLength, PRESET_MESSAGES.nameTooLong);

/**
 * What a preset keeps: the ensemble options a decision request accepts (mode, panel, early quorum,
 * gossip rounds, judge). Unset options keep the server's defaults when the preset is used.
 */
export const PresetSettingsSchema = EnsembleOptionsSchema.strict();
export type PresetSettings = z.infer<typeof PresetSettingsSchema>;

/** A preset as the endpoints answer it. */
export const PresetSchema = z.object({
  id: z.string(),
  name: z.string(),
  settings: PresetSettingsSchema,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Preset = z.infer<typeof PresetSchema>;

/** GET /api/presets: the caller's presets by name. */
export const PresetListSchema = z.array(PresetSchema);

/** POST /api/presets. */
export const PresetCreateSchema = z.object({ name: PresetNameSchema, settings: PresetSettingsSchema }).strict();
export type PresetCreate = z.infer<typeof PresetCreateSchema>;

/** PATCH /api/presets/{id}: a new name, new settings (replacing the old ones whole), or both. */
export const PresetUpdateSchema = z
  .object({ name: PresetNameSchema.optional(), settings: PresetSettingsSchema.optional() })
  .strict()
  .refine((update) => update.name !== undefined || update.settings !== undefined, PRESET_MESSAGES.nothingToChange);
export type PresetUpdate = z.infer<typeof PresetUpdateSchema>;

/** DELETE /api/presets/{id}. */
export const PresetDeleteSchema = z.object({ success: z.literal(true), message: z.string() });

/**
 * A request's ensemble options over a preset's: every option the request sets wins, every option
 * it leaves out comes from the preset.
 */
export function withPresetSettings<T extends object>(request: T, settings: PresetSettings): T & PresetSettings {
  const explicit = Object.fromEntries(Object.entries(request).filter(([, value]) => value !== undefined));
  return { ...settings, ...explicit } as T & PresetSettings;
}
