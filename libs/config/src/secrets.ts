/**
 * The variables that hold credentials: they belong in a secret store (the Kubernetes Secret, a
 * compose .env file), never in a ConfigMap or an image. k8s/secret.example.yaml must name each.
 */
export const SECRET_VARIABLES = [
  "JWT_SECRET",
  "API_KEY_ENCRYPTION_KEY",
  // May carry a user and password.
  "MONGO_URL",
  "REDIS_URL",
  "SMTP_URL",
  "GOOGLE_CLIENT_ID",
  "GOOGLE_CLIENT_SECRET",
] as const;

/** The variable holding a provider's API key (see `providerFromEnv`). */
export const providerApiKeyVariable = (providerId: string): string => `${providerId.toUpperCase()}_API_KEY`;

/** Every secret variable of a deployment asking these providers. */
export function secretVariables(providerIds: readonly string[]): string[] {
  return [...SECRET_VARIABLES, ...providerIds.map(providerApiKeyVariable)];
}
