import { PresetSchema, type Preset, type PresetSettings } from "@sd/contracts";
import { callApi } from "./history";

/** Saves a panel preset as the token's user through POST /api/presets; throws unless it is created. */
export async function savePreset(baseUrl: string, accessToken: string, name: string, settings: PresetSettings = {}): Promise<Preset> {
  const answer = await callApi(baseUrl, "/api/presets", accessToken, { body: { name, settings } });
  if (answer.status !== 201) throw new Error(`saving the preset "${name}" answered ${answer.status}: ${answer.text}`);
  return PresetSchema.parse(answer.body);
}
