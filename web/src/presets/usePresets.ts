import type { Preset, PresetCreate, PresetUpdate } from "@sd/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ApiError } from "../api/client";
import { SignedOutError } from "../api/authorized";
import { useAuthorization, useSession } from "../auth/session-context";
import { createPreset, deletePreset, fetchPresets, presetsKey, updatePreset } from "./presets-api";

/**
 * What to tell the user about a failed save: the server's own words for a mistake they can fix (a
 * name taken, too long, too many presets), else the fallback.
 */
export function presetErrorText(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.explained && error.status >= 400 && error.status < 500 ? error.message : fallback;
}

/** GET /api/presets for the signed-in user (null: not signed in, nothing is asked). */
export function usePresets(userId: string | null) {
  const session = useAuthorization();
  return useQuery({
    queryKey: presetsKey(userId ?? ""),
    queryFn: () => fetchPresets(session),
    enabled: userId !== null,
    retry: (failures: number, error: Error) => !(error instanceof SignedOutError) && failures < 1,
  });
}

/** The signed-in user's id (null when signed out) and their presets (never asked for when signed out). */
export function useOwnPresets() {
  const { user, authenticated } = useSession();
  const userId = authenticated && user ? user.id : null;
  return { userId, presets: usePresets(userId) };
}

/** Writes change the cached list at once, then reload it (another tab may have changed it too). */
function usePresetCache(userId: string) {
  const client = useQueryClient();
  const key = presetsKey(userId);
  const byName = (presets: Preset[]) => [...presets].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    put: (preset: Preset) => client.setQueryData<Preset[]>(key, (presets = []) => byName([...presets.filter((p) => p.id !== preset.id), preset])),
    drop: (id: string) => client.setQueryData<Preset[]>(key, (presets = []) => presets.filter((p) => p.id !== id)),
    resync: () => client.invalidateQueries({ queryKey: key }),
  };
}

export function useCreatePreset(userId: string) {
  const session = useAuthorization();
  const cache = usePresetCache(userId);
  return useMutation({
    mutationFn: (body: PresetCreate) => createPreset(body, session),
    onSuccess: (preset) => {
      cache.put(preset);
      void cache.resync();
    },
  });
}

export function useUpdatePreset(userId: string) {
  const session = useAuthorization();
  const cache = usePresetCache(userId);
  return useMutation({
    mutationFn: ({ id, change }: { id: string; change: PresetUpdate }) => updatePreset(id, change, session),
    onSuccess: (preset) => cache.put(preset),
    onError: () => void cache.resync(),
  });
}

export function useDeletePreset(userId: string) {
  const session = useAuthorization();
  const cache = usePresetCache(userId);
  return useMutation({
    mutationFn: (id: string) => deletePreset(id, session),
    onSuccess: (_answer, id) => cache.drop(id),
    onError: () => void cache.resync(),
  });
}
