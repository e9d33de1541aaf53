import type { Preset, PresetCreate, PresetUpdate } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { AuthorizationSource } from "../api/authorized";
import { callEndpoint } from "../api/endpoint";

/** The panel-preset calls, as the signed-in user, each through its endpoint definition. */

/** TanStack Query key of a user's presets (the user id in it: the next user on the device never sees them). */
export const presetsKey = (userId: string) => ["presets", userId] as const;

export const fetchPresets = (session: AuthorizationSource): Promise<Preset[]> => callEndpoint(ENDPOINTS.listPresets, {}, session);

export const createPreset = (body: PresetCreate, session: AuthorizationSource): Promise<Preset> => callEndpoint(ENDPOINTS.createPreset, { body }, session);

export const updatePreset = (id: string, body: PresetUpdate, session: AuthorizationSource): Promise<Preset> =>
  callEndpoint(ENDPOINTS.updatePreset, { params: { id }, body }, session);

export const deletePreset = async (id: string, session: AuthorizationSource): Promise<void> => {
  await callEndpoint(ENDPOINTS.deletePreset, { params: { id } }, session);
};
