import {
  PRESET_LIMITS,
  PRESET_MESSAGES,
  withPresetSettings,
  type EnsembleOptions,
  type Preset,
  type PresetCreate,
  type PresetSettings,
  type PresetUpdate,
} from "@sd/contracts";
import type { PresetRepository, PresetWrite, StoredPreset } from "@sd/store";
import type { EnsembleDefaults } from "../ensemble-options";
import { DomainError } from "./errors";

const toPreset = (preset: StoredPreset): Preset => ({
  id: preset.id,
  name: preset.name,
  settings: preset.settings,
  created_at: preset.created_at.toISOString(),
  updated_at: preset.updated_at.toISOString(),
});

/** A write's preset, or the domain error its refusal is (`name` is the name the caller asked for). */
function savedOrThrow(write: PresetWrite, name: string | undefined): Preset {
  switch (write.kind) {
    case "saved":
      return toPreset(write.preset);
    case "name-taken":
      throw new DomainError("conflict", PRESET_MESSAGES.nameTaken(name ?? ""));
    case "too-many":
      throw new DomainError("invalid", PRESET_MESSAGES.tooMany);
    case "not-found":
      throw new DomainError("not-found", PRESET_MESSAGES.notFound);
  }
}

/**
 * The request's ensemble options over the user's preset of that name (no name: the request as it
 * is). An unknown name is refused, never silently ignored: the caller meant a panel it does not get.
 */
export async function withPreset<T extends EnsembleOptions>(presets: PresetRepository, userId: string, name: string | undefined, request: T): Promise<T> {
  if (name === undefined) return request;
  const preset = await presets.findByName(userId, name);
  if (!preset) throw new DomainError("unknown-reference", PRESET_MESSAGES.unknownPreset(name));
  return withPresetSettings(request, preset.settings);
}

/** A signed-in user's panel presets: another user's preset is not found, exactly like an unknown id. */
export class PresetUseCases {
  constructor(
    private readonly presets: PresetRepository,
    /** The configured models and defaults: a preset names only models a decision could ask. */
    private readonly ensemble: EnsembleDefaults,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(userId: string): Promise<Preset[]> {
    return (await this.presets.listForUser(userId)).map(toPreset);
  }

  async get(userId: string, id: string): Promise<Preset> {
    const preset = await this.presets.findOwned(id, userId);
    if (!preset) throw new DomainError("not-found", PRESET_MESSAGES.notFound);
    return toPreset(preset);
  }

  async create(userId: string, { name, settings }: PresetCreate): Promise<Preset> {
    this.checkSettings(settings);
    return savedOrThrow(await this.presets.create({ user_id: userId, name, settings, created_at: this.now() }, PRESET_LIMITS.maxPerUser), name);
  }

  async update(userId: string, id: string, change: PresetUpdate): Promise<Preset> {
    if (change.settings) this.checkSettings(change.settings);
    return savedOrThrow(await this.presets.updateOwned(id, userId, change, this.now()), change.name);
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.presets.deleteOwned(id, userId))) throw new DomainError("not-found", PRESET_MESSAGES.notFound);
  }

  /**
   * Refuses models and a judge that are not configured, with the words a decision naming them
   * would get: the decision's own check, on a stand-in question (only the options are read).
   */
  private checkSettings(settings: PresetSettings): void {
    this.ensemble.resolve({ question: "-", categories: ["a", "b"], images: [], ...settings }, false);
  }
}
