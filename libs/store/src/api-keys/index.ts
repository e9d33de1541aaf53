export { apiKeysCollection, type ApiKeyDocument } from "./schema";
export { createApiKeyRepository, type ApiKeyChanges, type ApiKeyRepository, type NewApiKey, type StoredApiKey } from "./repository";
