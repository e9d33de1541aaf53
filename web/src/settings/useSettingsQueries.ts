import { API_KEY_MESSAGES, type ApiKey, type ApiKeyCreate } from "@sd/contracts";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { SignedOutError, type AuthorizationSource } from "../api/authorized";
import { useAuthorization } from "../auth/session-context";
import { toast } from "../ui/toast";
import { createApiKey, deleteApiKey, fetchApiKeys, fetchUsage, setApiKeyActive, setApiKeySpendLimit, settingsKeys, withoutSecret } from "./settings-api";

/** Every failure of the page is a destructive 'Error' toast with the specification's text. */
export const toastError = (text: string) => toast.error("Error", text);

/** One retry for a passing failure; none when the session is gone (the page then asks to sign in). */
const retryUnlessSignedOut = (failures: number, error: Error) => !(error instanceof SignedOutError) && failures < 1;

/**
 * The key list and the usage figures change outside this page (every API call through a key sets
 * its last use and cost, and counts against the month): they reload whenever the page opens and
 * when the user comes back to the tab, e.g. from the terminal where they just used a key.
 */
const measured = { staleTime: 0, refetchOnWindowFocus: true, retry: retryUnlessSignedOut } as const;

/** GET /api/api-keys for the signed-in user (null: not signed in, nothing is asked). */
export function useApiKeys(userId: string | null) {
  const session = useAuthorization();
  return useQuery({
    queryKey: settingsKeys.apiKeys(userId ?? ""),
    queryFn: async () => (await fetchApiKeys(session)).map(withoutSecret),
    enabled: userId !== null,
    ...measured,
  });
}

/** GET /api/usage for the signed-in user: the Limits section's figures. */
export function useUsage(userId: string | null) {
  const session = useAuthorization();
  return useQuery({ queryKey: settingsKeys.usage(userId ?? ""), queryFn: () => fetchUsage(session), enabled: userId !== null, ...measured });
}

/** The list as cached, changed in place so the table updates without waiting for a reload. */
function useKeyListCache(userId: string) {
  const client = useQueryClient();
  const key = settingsKeys.apiKeys(userId);
  return {
    update: (change: (keys: ApiKey[]) => ApiKey[]) => client.setQueryData<ApiKey[]>(key, (keys) => change(keys ?? [])),
    // Then the server's own list, which has the last word (another tab may have changed it too).
    resync: () => client.invalidateQueries({ queryKey: key }),
  };
}

/**
 * POST /api/api-keys. Resolves with the created key, secret included, for the dialog to show
 * once; the cached list gets it without the secret.
 */
export function useCreateApiKey(userId: string) {
  const session = useAuthorization();
  const cache = useKeyListCache(userId);
  return useMutation({
    mutationFn: (body: ApiKeyCreate) => createApiKey(body, session),
    onSuccess: (created) => {
      cache.update((keys) => [withoutSecret(created), ...keys.filter((key) => key.id !== created.id)]);
      void cache.resync();
      toast.success(API_KEY_MESSAGES.created);
    },
    onError: () => toastError(API_KEY_MESSAGES.createFailed),
  });
}

/** A change to one key: the answered key replaces it in the table, with a toast either way. */
function useKeyUpdate<Input>(userId: string, change: (input: Input, session: AuthorizationSource) => Promise<ApiKey>, texts: { done: (input: Input) => string; failed: string }) {
  const session = useAuthorization();
  const cache = useKeyListCache(userId);
  return useMutation({
    mutationFn: (input: Input) => change(input, session),
    onSuccess: (updated, input) => {
      cache.update((keys) => keys.map((key) => (key.id === updated.id ? withoutSecret(updated) : key)));
      toast.success(texts.done(input));
    },
    onError: () => {
      toastError(texts.failed);
      // The key may have been deleted elsewhere: show the list as it now is.
      void cache.resync();
    },
  });
}

/** PUT /api/api-keys/{id} with active_status: the Active / Inactive toggle. */
export function useSetApiKeyActive(userId: string) {
  return useKeyUpdate(userId, ({ id, active }: { id: string; active: boolean }, session) => setApiKeyActive(id, active, session), {
    done: () => API_KEY_MESSAGES.updated,
    failed: API_KEY_MESSAGES.updateFailed,
  });
}

/** PATCH /api/api-keys/{id}: the key's monthly spend limit, or none. */
export function useSetSpendLimit(userId: string) {
  return useKeyUpdate(userId, ({ id, limitUsd }: { id: string; limitUsd: number | null }, session) => setApiKeySpendLimit(id, limitUsd, session), {
    done: ({ limitUsd }) => (limitUsd === null ? API_KEY_MESSAGES.spendLimitCleared : API_KEY_MESSAGES.spendLimitSet),
    failed: API_KEY_MESSAGES.spendLimitFailed,
  });
}

/** DELETE /api/api-keys/{id}. */
export function useDeleteApiKey(userId: string) {
  const session = useAuthorization();
  const cache = useKeyListCache(userId);
  return useMutation({
    mutationFn: (id: string) => deleteApiKey(id, session),
    onSuccess: (_answer, id) => {
      cache.update((keys) => keys.filter((key) => key.id !== id));
      toast.success(API_KEY_MESSAGES.deleted);
    },
    onError: () => {
      toastError(API_KEY_MESSAGES.deleteFailed);
      void cache.resync();
    },
  });
}
