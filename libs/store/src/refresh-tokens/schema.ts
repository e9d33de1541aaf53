import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/**
 * One refresh token of a session. `_id` is the SHA-256 hash (hex) of the opaque token, never the
 * token itself. All tokens of one sign-in share a `family_id` (the session id): rotating a token
 * marks it `rotated_at` and adds its successor to the family; revoking the session marks every
 * token of the family `revoked_at`.
 */
export interface RefreshTokenDocument extends BaseDocument {
  family_id: string;
  user_id: string;
  created_at: Date;
  expires_at: Date;
  rotated_at: Date | null;
  revoked_at: Date | null;
}

export const refreshTokenSchema = new Schema<RefreshTokenDocument>(
  {
    _id: { type: String, required: true, match: /^[0-9a-f]{64}$/ },
    family_id: { type: String, required: true },
    user_id: { type: String, required: true },
    created_at: { type: Date, required: true },
    expires_at: { type: Date, required: true },
    rotated_at: { type: Date, default: null },
    revoked_at: { type: Date, default: null },
  },
  { collection: "refresh_tokens", versionKey: false, strict: "throw", id: false },
);
refreshTokenSchema.index({ family_id: 1 });
refreshTokenSchema.index({ user_id: 1 });
// MongoDB drops a token a day after it expires (an expired token is refused either way).
refreshTokenSchema.index({ expires_at: 1 }, { expireAfterSeconds: 24 * 3600 });

export const refreshTokensCollection = defineCollection<RefreshTokenDocument>("refresh_tokens", refreshTokenSchema);
