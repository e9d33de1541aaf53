import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/** A waitlist sign-up; `_id` is the normalised (trimmed, lower-case) email, so a repeat adds nothing. */
export interface WaitlistDocument extends BaseDocument {
  email: string;
  created_at: Date;
  ip: string | null;
}

export const waitlistSchema = new Schema<WaitlistDocument>(
  {
    _id: { type: String, required: true },
    email: { type: String, required: true, maxlength: 320 },
    created_at: { type: Date, required: true },
    ip: { type: String, default: null },
  },
  { collection: "waitlist", versionKey: false, strict: "throw", id: false },
);
waitlistSchema.index({ created_at: -1 });

export const waitlistCollection = defineCollection<WaitlistDocument>("waitlist", waitlistSchema);
