import { z } from "zod";

/** The highest monthly spend limit a key can have, in US dollars. */
export const MAX_SPEND_LIMIT_USD = 1_000_000;

/**
 * US dollars as the product writes an API key's costs and limits. Token prices make single calls
 * cost fractions of a cent, so up to 4 decimals show; a cost too small for that is still shown as
 * more than nothing.
 */
export function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.0001) return "<$0.0001";
  return usd.toLocaleString("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 4 });
}

/** Texts of the API keys, the settings page and key-authenticated calls. */
export const API_KEY_MESSAGES = {
  nameRequired: "API key name is required",
  created: "API key created successfully",
  updated: "API key updated successfully",
  deleted: "API key deleted successfully",
  fetchFailed: "Failed to fetch API keys",
  createFailed: "Failed to create API key",
  updateFailed: "Failed to update API key",
  deleteFailed: "Failed to delete API key",
  revealFailed: "Failed to reveal API key",
  copyFailed: "Failed to copy to clipboard",
  copiedTitle: "Copied to clipboard",
  copied: "API key has been copied to your clipboard",
  emptyState: "No API keys found. Create your first API key to get started.",
  notFound: "API key not found",
  /** `/v1` and the external paths. */
  missingKey: "Missing API key: send it in the SD-API-KEY header.",
  invalidKey: "Invalid or inactive API key.",
  quotaExceeded: (limit: number) =>
    `Monthly API request quota reached (${limit.toLocaleString("en-US")} requests). It resets on the first day of next month (UTC).`,
  rateLimited: "Too many requests for this API key. Retry after the time in the Retry-After header.",
  /** A key whose decisions this month have cost its monthly spend limit (402 on POST /v1/ensemble). */
  spendLimitReached: (limitUsd: number, spentUsd: number) =>
    `This API key has reached its monthly spend limit of ${formatUsd(limitUsd)} (${formatUsd(spentUsd)} spent this month). Raise or remove the limit in Settings, or wait until the first day of next month (UTC).`,
  spendLimitInvalid: `monthly_spend_limit_usd must be a number of US dollars from 0.01 to ${MAX_SPEND_LIMIT_USD.toLocaleString("en-US")}, or null for no limit.`,
  spendLimitSet: "Monthly spend limit saved",
  spendLimitCleared: "Monthly spend limit removed",
  spendLimitFailed: "Failed to save the monthly spend limit",
} as const;

/** Header API consumers authenticate with. */
export const API_KEY_HEADER = "SD-API-KEY";
/** Every key starts with this, so a leaked one is recognisable (and secret scanners can find it). */
export const API_KEY_PREFIX = "sd_live_";
/** Default workspace of a new key. */
export const DEFAULT_WORKSPACE = "Default";
/** What the settings table shows while a key is hidden (a fixed masked placeholder). */
export const MASKED_API_KEY = "sd_live_••••••••••••••••••••••••";

/** Free tier: API requests per calendar month (UTC) and image storage. */
export const FREE_TIER = {
  apiRequestsPerMonth: 1000,
  storageBytes: 1024 ** 3,
} as const;

/**
 * API key as the key endpoints answer it. `keyvalue` (the secret) is sent
 * only once, in the answer to POST /api/api-keys; afterwards it is read with the reveal call.
 * `cost` is in US dollars, summed from the models' reported token usage.
 */
export const ApiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  workspace: z.string(),
  created_by: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  cost: z.number().nonnegative(),
  active_status: z.boolean(),
  keyvalue: z.string().optional(),
  /** Added after the specification's fields: this calendar month (UTC), and the limit the owner set. */
  spend_this_month_usd: z.number().nonnegative().meta({ description: "What the key's decisions have cost since the first of the month (UTC), in US dollars." }),
  requests_this_month: z.number().int().nonnegative().meta({ description: "Calls made with the key since the first of the month (UTC)." }),
  monthly_spend_limit_usd: z.number().positive().nullable().meta({
    description: "The most the key may spend in a calendar month (US dollars); null for no limit. Past it, POST /v1/ensemble answers 402.",
  }),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** GET /api/api-keys: an array of keys, newest first. */
export const ApiKeyListSchema = z.array(ApiKeySchema);

const name = (field: string, required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(100, `${field} must be at most 100 characters.`);

/** Body of POST /api/api-keys: the name is trimmed and required; the workspace defaults to 'Default'. */
export const ApiKeyCreateSchema = z.object({
  name: name("API key name", API_KEY_MESSAGES.nameRequired),
  workspace: z
    .string({ error: "workspace must be text." })
    .trim()
    .max(100, "workspace must be at most 100 characters.")
    .optional()
    .transform((workspace) => (workspace ? workspace : DEFAULT_WORKSPACE)),
});
export type ApiKeyCreate = z.infer<typeof ApiKeyCreateSchema>;

/** Body of PUT /api/api-keys/{id}. */
export const ApiKeyUpdateSchema = z.object({
  active_status: z.boolean({ error: "active_status must be true or false." }),
});
export type ApiKeyUpdate = z.infer<typeof ApiKeyUpdateSchema>;

/**
 * Body of PATCH /api/api-keys/{id}: the key's monthly spend limit in US dollars (rounded to whole
 * cents), or null to remove it.
 */
export const ApiKeySpendLimitSchema = z.object({
  monthly_spend_limit_usd: z
    .number({ error: API_KEY_MESSAGES.spendLimitInvalid })
    .min(0.01, API_KEY_MESSAGES.spendLimitInvalid)
    .max(MAX_SPEND_LIMIT_USD, API_KEY_MESSAGES.spendLimitInvalid)
    .transform((usd) => Math.round(usd * 100) / 100)
    .nullable(),
});
export type ApiKeySpendLimit = z.output<typeof ApiKeySpendLimitSchema>;

/** GET /api/api-keys/{id}/reveal. */
export const ApiKeyRevealSchema = z.object({ api_key: z.string() });
export type ApiKeyReveal = z.infer<typeof ApiKeyRevealSchema>;

/** DELETE /api/api-keys/{id}. */
export const ApiKeyDeleteSchema = z.object({ success: z.literal(true), message: z.string() });

/** GET /api/usage (bearer): the settings page's Limits section, measured. */
export const UsageSchema = z.object({
  /** First instant of the current month (UTC), ISO 8601. */
  period_start: z.string(),
  api_requests: z.number().int().nonnegative(),
  api_request_limit: z.number().int().positive(),
  storage_bytes: z.number().int().nonnegative(),
  storage_limit_bytes: z.number().int().positive(),
});
export type Usage = z.infer<typeof UsageSchema>;
