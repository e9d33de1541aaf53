import { z } from "zod";
import { pageQuery } from "./history";
import { V1EnsembleRequestSchema, V1EnsembleResponseSchema } from "./v1";

/**
 * Batch decisions (`/v1/batches`): up to 10,000 decisions sent as one JSONL file, run in the
 * background at a lower priority than interactive ones, their results read back as JSONL.
 */
export const BATCH_LIMITS = {
  maxLines: 10_000,
  maxCustomIdLength: 64,
  /** Invalid lines listed in a refusal (or a skip_invalid acceptance); `error_count` tells the rest. */
  maxErrorsShown: 100,
  /** Days a batch and its results are kept after it was created. */
  retentionDays: 30,
  /** BATCH_MAX_BYTES when unset: the largest body accepted. */
  defaultMaxBytes: 50 * 1024 * 1024,
  maxPageSize: 100,
  pageSize: 20,
  maxOffset: 100_000,
} as const;

export const BATCH_STATUSES = ["validating", "in_progress", "completed", "cancelled", "failed"] as const;
export const BatchStatusSchema = z.enum(BATCH_STATUSES);
export type BatchStatus = z.infer<typeof BatchStatusSchema>;
/** The states a batch does not leave. */
export const TERMINAL_BATCH_STATUSES: readonly BatchStatus[] = ["completed", "cancelled", "failed"];

/** A line as stored: `running` while its decision is in flight (answered as `pending` in results). */
export const BATCH_LINE_STATUSES = ["pending", "running", "completed", "failed", "cancelled", "skipped"] as const;
export type BatchLineStatus = (typeof BATCH_LINE_STATUSES)[number];
export const TERMINAL_BATCH_LINE_STATUSES: readonly BatchLineStatus[] = ["completed", "failed", "cancelled", "skipped"];

/** A line's state as the results answer it. */
export const BATCH_RESULT_STATUSES = ["completed", "failed", "cancelled", "pending", "skipped"] as const;

export const BATCH_MESSAGES = {
  notFound: "Batch not found",
  emptyBody: "The batch is empty: send one JSON object per line (JSONL).",
  notJsonObject: "Each line must be one JSON object.",
  notJson: "The line is not valid JSON.",
  customIdRequired: "custom_id is required: a non-empty string of at most 64 characters.",
  customIdTooLong: `custom_id must be at most ${BATCH_LIMITS.maxCustomIdLength} characters.`,
  duplicateCustomId: (customId: string, firstLine: number) => `custom_id "${customId}" is used again (first on line ${firstLine}); each line needs its own.`,
  tooManyLines: `A batch can have at most ${BATCH_LIMITS.maxLines.toLocaleString("en-US")} lines.`,
  tooLarge: (maxBytes: number) => `The batch is larger than ${Math.floor(maxBytes / (1024 * 1024))} MB.`,
  invalidLines: (count: number, shown: number) =>
    count === 1 ? "1 line is invalid: nothing was started." : `${count} lines are invalid${count > shown ? ` (the first ${shown} are listed)` : ""}: nothing was started.`,
  nothingValid: "Every line is invalid: nothing was started.",
  unsupportedType: "Send the batch as JSONL (Content-Type: application/jsonl or application/x-ndjson) or as a multipart form with the file in the field `file`.",
  fileRequired: "Send the JSONL file in the form field `file`.",
  quotaExceeded: (lines: number, remaining: number) =>
    `This batch has ${lines.toLocaleString("en-US")} decisions but ${remaining.toLocaleString("en-US")} remain this month.`,
  alreadyFinished: (status: BatchStatus) => `The batch is ${status.replace("_", " ")}: there is nothing left to cancel.`,
  cancelled: "Cancelled before it was started.",
} as const;

/** A batch's caller-chosen line id: echoed in its result line. */
export const CustomIdSchema = z
  .string({ error: BATCH_MESSAGES.customIdRequired })
  .min(1, BATCH_MESSAGES.customIdRequired)
  .max(BATCH_LIMITS.maxCustomIdLength, BATCH_MESSAGES.customIdTooLong);

const v1 = V1EnsembleRequestSchema.shape;

/**
 * One line of a batch: the fields of POST /v1/ensemble (same schemas, so the same texts), with
 * `mode` for `ensemble_mode` and `panel` for `models`.
 */
export const BatchLineInputSchema = z.object({
  custom_id: CustomIdSchema.meta({ description: "Your id for the line (1 to 64 characters, unique in the batch): echoed in its result." }),
  prompt: v1.prompt,
  valid_responses: v1.valid_responses,
  images: v1.images,
  mode: v1.ensemble_mode,
  panel: v1.models,
});
export type BatchLineInput = z.input<typeof BatchLineInputSchema>;
export type BatchLine = z.output<typeof BatchLineInputSchema>;

/** One invalid line: its number (1-based), its custom_id when it had a readable one, and what is wrong. */
export const BatchLineErrorSchema = z.object({
  line: z.number().int().min(1),
  custom_id: z.string().optional(),
  message: z.string(),
});
export type BatchLineError = z.infer<typeof BatchLineErrorSchema>;

/** A batch as every /v1/batches endpoint answers it. */
export const BatchSchema = z.object({
  id: z.string().meta({ description: "The batch id.", example: "batch_5f1c0a7e-2b9d-4c3e-8a6f-1b2d3c4e5f60" }),
  object: z.literal("batch"),
  status: BatchStatusSchema.meta({
    description:
      "in_progress while lines run; completed when every line is decided or failed; cancelled once a cancel request has let the running lines finish; failed if the batch could not run at all.",
  }),
  request_counts: z.object({
    total: z.number().int().nonnegative().meta({ description: "Lines to decide (skipped invalid lines not counted)." }),
    completed: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
  }),
  created_at: z.string().meta({ description: "ISO 8601." }),
  completed_at: z.string().nullable().meta({ description: "When it reached completed, cancelled or failed (ISO 8601); null before." }),
  expires_at: z.string().meta({ description: `When the batch and its results are deleted: ${BATCH_LIMITS.retentionDays} days after creation (ISO 8601).` }),
});
export type Batch = z.infer<typeof BatchSchema>;

/** 202 answer of POST /v1/batches: the batch, and the lines skipped with `skip_invalid=true`. */
export const BatchCreatedSchema = BatchSchema.extend({
  skipped: z.object({
    count: z.number().int().nonnegative(),
    errors: z.array(BatchLineErrorSchema).meta({ description: `The first ${BATCH_LIMITS.maxErrorsShown} skipped lines.` }),
  }),
});
export type BatchCreated = z.infer<typeof BatchCreatedSchema>;

/** The refusal of a batch with invalid lines (400), listing them. */
export const BatchRejectedSchema = z.object({
  detail: z.string(),
  errors: z.array(BatchLineErrorSchema).meta({ description: `The first ${BATCH_LIMITS.maxErrorsShown} invalid lines.` }),
  error_count: z.number().int().nonnegative().meta({ description: "Every invalid line, listed or not." }),
});
export type BatchRejected = z.infer<typeof BatchRejectedSchema>;

/** GET /v1/batches: newest first, `limit` and `offset` as the history's. */
export const BatchListQuerySchema = z.object(pageQuery(BATCH_LIMITS));
export type BatchListQuery = z.output<typeof BatchListQuerySchema>;

export const BatchListSchema = z.object({
  object: z.literal("list"),
  data: z.array(BatchSchema),
  total: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
});
export type BatchList = z.infer<typeof BatchListSchema>;

/** `skip_invalid=true` (query or form field): invalid lines are skipped instead of refusing the batch. */
export const BatchCreateQuerySchema = z.object({
  skip_invalid: z.enum(["true", "false"], { error: "skip_invalid must be true or false." }).optional(),
});

/** One line of GET /v1/batches/{id}/results, in input order. */
export const BatchResultLineSchema = z.object({
  custom_id: z.string(),
  line: z.number().int().min(1),
  status: z.enum(BATCH_RESULT_STATUSES),
  decision_id: z.string().nullable().meta({ description: "The decision's id (GET /v1/decisions/{id}, history); null for a skipped line." }),
  result: V1EnsembleResponseSchema.nullable().meta({ description: "The decision as GET /v1/decisions/{id} answers its result; null unless completed." }),
  error: z.object({ message: z.string() }).nullable(),
});
export type BatchResultLine = z.infer<typeof BatchResultLineSchema>;

/** What the batch's owner sees of a batch record (the store's counts and times). */
export function toBatch(record: {
  id: string;
  status: BatchStatus;
  total: number;
  completed: number;
  failed: number;
  created_at: Date;
  completed_at: Date | null;
  expires_at: Date;
}): Batch {
  return {
    id: record.id,
    object: "batch",
    status: record.status,
    request_counts: { total: record.total, completed: record.completed, failed: record.failed },
    created_at: record.created_at.toISOString(),
    completed_at: record.completed_at?.toISOString() ?? null,
    expires_at: record.expires_at.toISOString(),
  };
}
