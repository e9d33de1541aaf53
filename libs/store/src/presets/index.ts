export { presetsCollection, type PresetDocument } from "./schema";
export { createPresetRepository, type NewPreset, type PresetRepository, type PresetWrite, type StoredPreset } from "./repository";
