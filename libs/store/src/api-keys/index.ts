export { apiKeysCollection, type ApiKeyDocument } from "./schema";
export { createApiKeyRepository, type ApiKeyRepository, type NewApiKey, type StoredApiKey } from "./repository";
