import { BATCH_LINE_STATUSES, BATCH_STATUSES, ENSEMBLE_MODES, type BatchLineStatus, type BatchStatus, type EnsembleMode } from "@sd/contracts";
import { Schema } from "mongoose";
import type { BaseDocument } from "../collection";
import { defineCollection } from "../collection-spec";

/**
 * A batch of decisions sent to POST /v1/batches. Written after all of its lines, so a crash while
 * a batch is being written leaves lines no batch refers to (purged with the expired ones), never a
 * visible batch with lines missing.
 */
export interface BatchDocument extends BaseDocument {
  user_id: string;
  api_key_id: string;
  status: BatchStatus;
  /** Lines to decide (skipped invalid lines are not counted). */
  total: number;
  completed: number;
  failed: number;
  skipped: number;
  created_at: Date;
  completed_at: Date | null;
  cancel_requested: boolean;
  expires_at: Date;
}

export const batchSchema = new Schema<BatchDocument>(
  {
    _id: { type: String, required: true },
    user_id: { type: String, required: true, minlength: 1 },
    api_key_id: { type: String, required: true, minlength: 1 },
    status: { type: String, required: true, enum: [...BATCH_STATUSES] },
    total: { type: Number, required: true, min: 0 },
    completed: { type: Number, required: true, min: 0 },
    failed: { type: Number, required: true, min: 0 },
    skipped: { type: Number, required: true, min: 0 },
    created_at: { type: Date, required: true },
    completed_at: { type: Date, default: null },
    cancel_requested: { type: Boolean, required: true },
    expires_at: { type: Date, required: true },
  },
  { collection: "batches", versionKey: false, strict: "throw", id: false },
);
// The owner's list, newest first (_id makes the order total).
batchSchema.index({ user_id: 1, created_at: -1, _id: 1 });
// The runner's recovery at start: the batches still running.
batchSchema.index({ status: 1 });
// The purge of expired batches.
batchSchema.index({ expires_at: 1 });

export const batchesCollection = defineCollection<BatchDocument>("batches", batchSchema);

/** A line's decision request as stored (images are kept apart, see `images`). */
export interface BatchLineRequestDocument {
  question: string;
  categories: string[];
  ensemble_mode?: EnsembleMode;
  models?: string[];
}

/** One line of a batch, in the order it was sent; `_id` is `${batch_id}:${line}`. */
export interface BatchLineDocument extends BaseDocument {
  batch_id: string;
  line: number;
  custom_id: string;
  /** Null for a line skipped as invalid. */
  request: BatchLineRequestDocument | null;
  /** The line's images as a JSON array of data URLs; absent when it has none. Kept out of memory by the embedded store. */
  images?: string;
  status: BatchLineStatus;
  /**
   * The batch id while the line is pending, else null: the embedded store looks lines up by the
   * leading field of an index, so the runner's "next pending lines" reads only the pending ones.
   */
  pending_of: string | null;
  /** Fixed at creation, so a line run again after a crash makes the same decision, never a second one. */
  decision_id: string;
  error: string | null;
  expires_at: Date;
}

const lineRequestSchema = new Schema<BatchLineRequestDocument>(
  {
    question: { type: String, required: true },
    categories: { type: [String], required: true },
    ensemble_mode: { type: String, enum: [...ENSEMBLE_MODES] },
    models: { type: [String], default: undefined },
  },
  { _id: false, strict: "throw" },
);

export const batchLineSchema = new Schema<BatchLineDocument>(
  {
    _id: { type: String, required: true },
    batch_id: { type: String, required: true },
    line: { type: Number, required: true, min: 1 },
    custom_id: { type: String, required: true },
    request: { type: lineRequestSchema, default: null },
    images: { type: String },
    status: { type: String, required: true, enum: [...BATCH_LINE_STATUSES] },
    pending_of: { type: String, default: null },
    decision_id: { type: String, required: true },
    error: { type: String, default: null },
    expires_at: { type: Date, required: true },
  },
  { collection: "batch_lines", versionKey: false, strict: "throw", id: false, minimize: false },
);
// A batch's lines in order (results, and the runner's reads on MongoDB).
batchLineSchema.index({ batch_id: 1, line: 1 }, { unique: true });
batchLineSchema.index({ batch_id: 1, status: 1, line: 1 });
batchLineSchema.index({ pending_of: 1, line: 1 });
batchLineSchema.index({ expires_at: 1 });

// Images stay in files of their own on the embedded store: 10,000 lines with images held in memory would fill the heap.
export const batchLinesCollection = defineCollection<BatchLineDocument>("batch_lines", batchLineSchema, { storedApart: ["images"] });
