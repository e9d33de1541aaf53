import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/**
 * An API key. The key itself is never stored: `key_hash` is
 * its SHA-256 (hex), the only way a call finds it, and `key_ciphertext` its AES-256-GCM encryption
 * (for the owner's reveal), which only the gateway's encryption key opens. `_id` is the key's id.
 * What the key has cost is not kept here: it is the sum of its decisions' `cost_usd`
 * (`DecisionRepository.costByApiKey`), so it is never out of step with them.
 */
export interface ApiKeyDocument extends BaseDocument {
  user_id: string;
  name: string;
  workspace: string;
  /** The owner's email when the key was created. */
  created_by: string;
  created_at: Date;
  /** When a call last came through the key; null until the first. */
  last_used_at: Date | null;
  active_status: boolean;
  key_hash: string;
  key_ciphertext: string;
  /**
   * The most the key may spend per calendar month (US dollars), set by its owner; null for no
   * limit (and on keys stored before limits existed). What it has spent is counted in Redis (ApiKeyUsage).
   */
  monthly_spend_limit_usd: number | null;
}

export const apiKeySchema = new Schema<ApiKeyDocument>(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true },
    name: { type: String, required: true, trim: true, minlength: 1, maxlength: 100 },
    workspace: { type: String, required: true, trim: true, minlength: 1, maxlength: 100 },
    created_by: { type: String, required: true, maxlength: 320 },
    created_at: { type: Date, required: true },
    last_used_at: { type: Date, default: null },
    active_status: { type: Boolean, required: true },
    key_hash: { type: String, required: true, match: /^[0-9a-f]{64}$/ },
    key_ciphertext: { type: String, required: true, maxlength: 1000 },
    monthly_spend_limit_usd: { type: Number, default: null, min: 0.01 },
  },
  { collection: "api_keys", versionKey: false, strict: "throw", id: false },
);
// Every key-authenticated call looks its key up by hash; two keys never share one.
apiKeySchema.index({ key_hash: 1 }, { unique: true });
// A user's keys, newest first (the settings table; _id makes the order total).
apiKeySchema.index({ user_id: 1, created_at: -1, _id: 1 });

export const apiKeysCollection = defineCollection<ApiKeyDocument>("api_keys", apiKeySchema);
