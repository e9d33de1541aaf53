import type { ApiKey, ApiKeyCreate, Usage } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { AuthorizationSource } from "../api/authorized";
import { callEndpoint } from "../api/endpoint";

/**
 * The settings page's calls (the API-key endpoints and GET /api/usage), all as the
 * signed-in user, each through its endpoint definition (path, method, answer schema).
 */

/**
 * TanStack Query keys of the settings page. Each holds the user id, so the next user signing in on
 * the same device never sees the previous user's keys or figures.
 */
export const settingsKeys = {
  apiKeys: (userId: string) => ["api-keys", userId] as const,
  usage: (userId: string) => ["usage", userId] as const,
};

/** GET /api/api-keys: the user's keys, newest first (without their secret). */
export const fetchApiKeys = (session: AuthorizationSource): Promise<ApiKey[]> => callEndpoint(ENDPOINTS.listApiKeys, {}, session);

/** POST /api/api-keys: the created key, the only answer that carries its secret (`keyvalue`). */
export const createApiKey = (body: ApiKeyCreate, session: AuthorizationSource): Promise<ApiKey> =>
  callEndpoint(ENDPOINTS.createApiKey, { body }, session);

/** PUT /api/api-keys/{id}: switches the key on or off; answers the updated key. */
export const setApiKeyActive = (id: string, active: boolean, session: AuthorizationSource): Promise<ApiKey> =>
  callEndpoint(ENDPOINTS.updateApiKey, { params: { id }, body: { active_status: active } }, session);

/** PATCH /api/api-keys/{id}: sets the key's monthly spend limit (US dollars), or removes it with null; answers the updated key. */
export const setApiKeySpendLimit = (id: string, limitUsd: number | null, session: AuthorizationSource): Promise<ApiKey> =>
  callEndpoint(ENDPOINTS.setApiKeySpendLimit, { params: { id }, body: { monthly_spend_limit_usd: limitUsd } }, session);

/** DELETE /api/api-keys/{id}. */
export const deleteApiKey = async (id: string, session: AuthorizationSource): Promise<void> => {
  await callEndpoint(ENDPOINTS.deleteApiKey, { params: { id } }, session);
};

/** GET /api/api-keys/{id}/reveal: the key's secret. */
export const revealApiKey = async (id: string, session: AuthorizationSource): Promise<string> =>
  (await callEndpoint(ENDPOINTS.revealApiKey, { params: { id } }, session)).api_key;

/** GET /api/usage: API requests this month and image storage, measured, against the free tier. */
export const fetchUsage = (session: AuthorizationSource): Promise<Usage> => callEndpoint(ENDPOINTS.getUsage, {}, session);

/** A key as the page keeps it: never with its secret, which only the create dialog holds. */
export const withoutSecret = ({ keyvalue: _secret, ...key }: ApiKey): ApiKey => key;
