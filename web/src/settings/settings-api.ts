import {
  ApiKeyDeleteSchema,
  ApiKeyListSchema,
  ApiKeyRevealSchema,
  ApiKeySchema,
  UsageSchema,
  type ApiKey,
  type ApiKeyCreate,
  type Usage,
} from "@sd/contracts";
import { authorizedRequest, type AuthorizationSource } from "../api/authorized";

/**
 * The settings page's calls (the API-key endpoints and GET /api/usage), all as the
 * signed-in user, every answer parsed with the shared contract schemas.
 */

/**
 * TanStack Query keys of the settings page. Each holds the user id, so the next user signing in on
 * the same device never sees the previous user's keys or figures.
 */
export const settingsKeys = {
  apiKeys: (userId: string) => ["api-keys", userId] as const,
  usage: (userId: string) => ["usage", userId] as const,
};

const keyPath = (id: string) => `/api/api-keys/${encodeURIComponent(id)}`;

/** GET /api/api-keys: the user's keys, newest first (without their secret). */
export const fetchApiKeys = (session: AuthorizationSource): Promise<ApiKey[]> => authorizedRequest("/api/api-keys", { schema: ApiKeyListSchema }, session);

/** POST /api/api-keys: the created key, the only answer that carries its secret (`keyvalue`). */
export const createApiKey = (body: ApiKeyCreate, session: AuthorizationSource): Promise<ApiKey> =>
  authorizedRequest("/api/api-keys", { method: "POST", body, schema: ApiKeySchema }, session);

/** PUT /api/api-keys/{id}: switches the key on or off; answers the updated key. */
export const setApiKeyActive = (id: string, active: boolean, session: AuthorizationSource): Promise<ApiKey> =>
  authorizedRequest(keyPath(id), { method: "PUT", body: { active_status: active }, schema: ApiKeySchema }, session);

/** DELETE /api/api-keys/{id}. */
export const deleteApiKey = async (id: string, session: AuthorizationSource): Promise<void> => {
  await authorizedRequest(keyPath(id), { method: "DELETE", schema: ApiKeyDeleteSchema }, session);
};

/** GET /api/api-keys/{id}/reveal: the key's secret. */
export const revealApiKey = async (id: string, session: AuthorizationSource): Promise<string> =>
  (await authorizedRequest(`${keyPath(id)}/reveal`, { schema: ApiKeyRevealSchema }, session)).api_key;

/** GET /api/usage: API requests this month and image storage, measured, against the free tier. */
export const fetchUsage = (session: AuthorizationSource): Promise<Usage> => authorizedRequest("/api/usage", { schema: UsageSchema }, session);

/** A key as the page keeps it: never with its secret, which only the create dialog holds. */
export const withoutSecret = ({ keyvalue: _secret, ...key }: ApiKey): ApiKey => key;
