import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/** A resume as received; the bytes are kept as base64 so both drivers store them the same way. */
export interface StoredResume {
  filename: string;
  content_type: string;
  size: number;
  data_base64: string;
}

/** A job application. */
export interface ApplicationDocument extends BaseDocument {
  name: string;
  email: string;
  phone: string;
  linkedin: string;
  accomplishment: string;
  position: string;
  department: string;
  resume: StoredResume | null;
  created_at: Date;
  ip: string | null;
}

const resumeSchema = new Schema<StoredResume>(
  {
    filename: { type: String, required: true, maxlength: 255 },
    content_type: { type: String, required: true },
    size: { type: Number, required: true, min: 1, max: 10 * 1024 * 1024 },
    data_base64: { type: String, required: true },
  },
  { _id: false, strict: "throw" },
);

const text = (maxlength: number) => ({ type: String, required: true, maxlength });

export const applicationSchema = new Schema<ApplicationDocument>(
  {
    _id: { type: String, required: true },
    name: text(200),
    email: text(320),
    phone: text(40),
    linkedin: text(500),
    accomplishment: text(100),
    position: text(200),
    department: text(200),
    resume: { type: resumeSchema, default: null },
    created_at: { type: Date, required: true },
    ip: { type: String, default: null },
  },
  { collection: "job_applications", versionKey: false, strict: "throw", id: false },
);
applicationSchema.index({ created_at: -1 });
applicationSchema.index({ position: 1, created_at: -1 });

export const applicationsCollection = defineCollection<ApplicationDocument>("job_applications", applicationSchema);
