import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/** An account; `_id` is the user id. */
export interface UserDocument extends BaseDocument {
  /** Lower-case; one account per email (unique index). */
  email: string;
  /** Null for magic-link users; Google gives one. */
  name: string | null;
  is_verified: boolean;
  avatar_url: string | null;
  /** Google's `sub` once the account has signed in with Google. */
  google_sub: string | null;
  created_at: Date;
  last_login_at: Date;
}

export const userSchema = new Schema<UserDocument>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true, maxlength: 320, lowercase: true, trim: true },
    name: { type: String, default: null, maxlength: 500 },
    is_verified: { type: Boolean, default: false },
    avatar_url: { type: String, default: null, maxlength: 2048 },
    google_sub: { type: String, default: null, maxlength: 255 },
    created_at: { type: Date, required: true },
    last_login_at: { type: Date, required: true },
  },
  { collection: "users", versionKey: false, strict: "throw", id: false },
);
userSchema.index({ email: 1 }, { unique: true });
userSchema.index({ google_sub: 1 }, { unique: true, partialFilterExpression: { google_sub: { $type: "string" } } });

export const usersCollection = defineCollection<UserDocument>("users", userSchema);
