import { z } from "zod";
import {
  BATCH_LIMITS,
  BATCH_MESSAGES,
  BatchCreatedSchema,
  BatchCreateQuerySchema,
  BatchListQuerySchema,
  BatchListSchema,
  BatchRejectedSchema,
  BatchSchema,
  MESSAGES,
  type Batch,
  type BatchResultLine,
} from "../index";
import { EXAMPLE_IDS, exampleEnsembleResponse, exampleErrors } from "./examples";
import { error, json, one, RATE_LIMIT_HEADERS, RETRY_AFTER_HEADERS, storeFull } from "./shared";
import { defineEndpoint } from "./define";
import { apiKeyErrors } from "./v1";

// ---------------------------------------------------------------- batches (/v1/batches)

export const EXAMPLE_BATCH_ID = "batch_5f1c0a7e-2b9d-4c3e-8a6f-1b2d3c4e5f60";

const batchIdParam = z.object({ id: z.string().meta({ description: "The batch's `id` from `POST /v1/batches`.", example: EXAMPLE_BATCH_ID }) });

const EXAMPLE_LINES = [
  { custom_id: "ticket-1041", prompt: "Which team should handle this ticket: 'The invoice PDF is blank'?", valid_responses: ["Billing", "Engineering", "Support"] },
  { custom_id: "ticket-1042", prompt: "Which team should handle this ticket: 'I was charged twice'?", valid_responses: ["Billing", "Engineering", "Support"], mode: "weighted_voting" },
];
const EXAMPLE_JSONL = `${EXAMPLE_LINES.map((line) => JSON.stringify(line)).join("\n")}\n`;

const created = new Date(Date.UTC(2025, 8, 8, 10, 0, 0));
const exampleBatch = (status: Batch["status"], completed: number, failed: number): Batch => ({
  id: EXAMPLE_BATCH_ID,
  object: "batch",
  status,
  request_counts: { total: 2, completed, failed },
  created_at: created.toISOString(),
  completed_at: status === "in_progress" ? null : new Date(created.getTime() + 95_000).toISOString(),
  expires_at: new Date(created.getTime() + BATCH_LIMITS.retentionDays * 24 * 3600_000).toISOString(),
});

const exampleResults: BatchResultLine[] = [
  { custom_id: "ticket-1041", line: 1, status: "completed", decision_id: EXAMPLE_IDS.decision, result: exampleEnsembleResponse, error: null },
  { custom_id: "ticket-1042", line: 2, status: "failed", decision_id: "3c2b1a09-8f7e-4d6c-9b5a-1e2d3c4b5a69", result: null, error: { message: "The decision could not be completed. Please submit it again." } },
];

const notFound = error("No batch with this id belongs to the key's owner (another user's batch is answered the same).", one("Unknown id", { detail: BATCH_MESSAGES.notFound }));

export const batchEndpoints = [
  defineEndpoint({
    method: "post",
    path: "/v1/batches",
    tag: "batches",
    operationId: "createBatch",
    summary: "Send a batch of decisions",
    description: [
      `Up to ${BATCH_LIMITS.maxLines.toLocaleString("en-US")} decisions in one JSONL file: one JSON object per line, each \`{custom_id, prompt, valid_responses, images?, mode?, panel?}\`.`,
      "`prompt`, `valid_responses` and `images` are those of `POST /v1/ensemble`; `mode` is its `ensemble_mode` and `panel` its `models`. `custom_id` (1 to 64 characters, unique in the batch) comes back with the line's result.",
      "",
      "Send the file as the body with `Content-Type: application/jsonl` (or `application/x-ndjson`), or as a multipart form with the file in the field `file`.",
      `The body may be up to ${Math.round(BATCH_LIMITS.defaultMaxBytes / (1024 * 1024))} MB (BATCH_MAX_BYTES). Blank lines are ignored; line numbers count every line of the file, from 1.`,
      "",
      "Every line is checked before anything runs: one invalid line refuses the whole batch (422, with each invalid line's number and the same text `POST /v1/ensemble` would answer), unless `skip_invalid=true` (query or form field): then the invalid lines are skipped, listed in the answer and in the results.",
      "",
      "Each decision counts as one request of the monthly quota, counted when the batch is accepted (this call being the first): a batch larger than what remains this month is refused before anything runs.",
      "The decisions are the key owner's, like those of `POST /v1/ensemble`: they appear in the history, and their cost counts for the key.",
      "",
      "Poll `GET /v1/batches/{id}` until its status is `completed` (or `cancelled`), then read `GET /v1/batches/{id}/results`. A batch and its results are kept for 30 days (`expires_at`).",
    ].join("\n"),
    access: "api-key",
    query: BatchCreateQuerySchema.extend({
      skip_invalid: BatchCreateQuerySchema.shape.skip_invalid.meta({ description: "true: skip invalid lines (listed in the answer) instead of refusing the batch." }),
    }),
    body: {
      schema: z.string().meta({ description: "JSONL: one line object per line ({custom_id, prompt, valid_responses, images?, mode?, panel?})." }),
      contentType: "application/jsonl",
      examples: one("Two ticket routings", EXAMPLE_JSONL),
    },
    responses: {
      202: {
        description: "Accepted: every line valid (or the invalid ones skipped); the lines run in the background.",
        body: json(BatchCreatedSchema, {
          accepted: { summary: "Accepted", value: { ...exampleBatch("in_progress", 0, 0), skipped: { count: 0, errors: [] } } },
          skippedLines: {
            summary: "With skip_invalid=true and one invalid line",
            value: { ...exampleBatch("in_progress", 0, 0), request_counts: { total: 1, completed: 0, failed: 0 }, skipped: { count: 1, errors: [{ line: 2, custom_id: "ticket-1042", message: MESSAGES.categoriesRequired.detail }] } },
          },
        }),
        headers: RATE_LIMIT_HEADERS,
      },
      400: error("The body is not a batch: empty, not JSONL or a multipart form, or a bad `skip_invalid`.", {
        empty: { summary: "No line", value: { detail: BATCH_MESSAGES.emptyBody } },
        notJsonl: { summary: "Another content type", value: { detail: BATCH_MESSAGES.unsupportedType } },
      }),
      ...apiKeyErrors,
      429: error(
        "Too many requests for this key (per-key rate limit), the monthly quota used up, or a batch with more decisions than remain this month (nothing was started).",
        {
          rateLimited: { summary: "Rate limited", value: exampleErrors.keyRateLimited },
          quotaExceeded: { summary: "Monthly quota used up", value: exampleErrors.quotaExceeded },
          batchTooLarge: { summary: "More decisions than remain", value: { detail: BATCH_MESSAGES.quotaExceeded(1200, 300) } },
        },
        RETRY_AFTER_HEADERS,
      ),
      402: error("The key's monthly spend limit is reached: nothing was started.", one("Spend limit reached", exampleErrors.spendLimitReached)),
      413: error(`More than ${BATCH_LIMITS.maxLines.toLocaleString("en-US")} lines, or a body larger than BATCH_MAX_BYTES.`, {
        tooManyLines: { summary: "Too many lines", value: { detail: BATCH_MESSAGES.tooManyLines } },
        tooLarge: { summary: "Body too large", value: { detail: BATCH_MESSAGES.tooLarge(BATCH_LIMITS.defaultMaxBytes) } },
      }),
      422: {
        description: `Invalid lines: nothing was started. \`errors\` lists the first ${BATCH_LIMITS.maxErrorsShown} (line numbers from 1), \`error_count\` counts them all.`,
        body: json(BatchRejectedSchema, {
          invalidLines: {
            summary: "Two invalid lines",
            value: {
              detail: BATCH_MESSAGES.invalidLines(2, BATCH_LIMITS.maxErrorsShown),
              errors: [
                { line: 3, custom_id: "ticket-1043", message: MESSAGES.questionRequired.detail },
                { line: 7, message: BATCH_MESSAGES.notJson },
              ],
              error_count: 2,
            },
          },
        }),
      },
      507: storeFull,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/v1/batches",
    tag: "batches",
    operationId: "listBatches",
    summary: "List the key owner's batches",
    description: "Newest first. `total` counts every batch (kept 30 days); `limit` (default 20, at most 100) and `offset` page through them.",
    access: "api-key",
    query: BatchListQuerySchema,
    responses: {
      200: {
        description: "A page of batches.",
        body: json(BatchListSchema, one("One batch", { object: "list", data: [exampleBatch("completed", 1, 1)], total: 1, limit: BATCH_LIMITS.pageSize, offset: 0 })),
        headers: RATE_LIMIT_HEADERS,
      },
      400: error("`limit` or `offset` is invalid.", one("Bad limit", { detail: `limit must be a whole number from 0 to ${BATCH_LIMITS.maxPageSize}.` })),
      ...apiKeyErrors,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/v1/batches/{id}",
    tag: "batches",
    operationId: "getBatch",
    summary: "Get a batch's status",
    description: "`request_counts` tells how many lines are done; `completed_at` is set once the batch is completed or cancelled.",
    access: "api-key",
    params: batchIdParam,
    responses: {
      200: {
        description: "The batch.",
        body: json(BatchSchema, {
          running: { summary: "Running", value: exampleBatch("in_progress", 1, 0) },
          completed: { summary: "Completed", value: exampleBatch("completed", 1, 1) },
        }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...apiKeyErrors,
      404: notFound,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/v1/batches/{id}/cancel",
    tag: "batches",
    operationId: "cancelBatch",
    summary: "Cancel a batch",
    description:
      "Lines not started yet are cancelled at once; lines already running finish and are counted. The status stays `in_progress` until they have, then becomes `cancelled`. A completed or cancelled batch answers 409.",
    access: "api-key",
    params: batchIdParam,
    responses: {
      200: {
        description: "Cancelling (lines still running) or cancelled.",
        body: json(BatchSchema, {
          cancelling: { summary: "Running lines finishing", value: exampleBatch("in_progress", 1, 0) },
          cancelled: { summary: "Cancelled", value: exampleBatch("cancelled", 1, 0) },
        }),
        headers: RATE_LIMIT_HEADERS,
      },
      ...apiKeyErrors,
      404: notFound,
      409: error("The batch is completed or cancelled already.", one("Finished", { detail: BATCH_MESSAGES.alreadyFinished("completed") })),
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/v1/batches/{id}/results",
    tag: "batches",
    operationId: "getBatchResults",
    summary: "Get a batch's results",
    description: [
      "JSONL, streamed: one line per line of the batch, in the order they were sent, each `{custom_id, line, status, decision_id, result, error}`.",
      "`status`: `completed` (`result` is what `GET /v1/decisions/{id}` answers as its result), `failed` or `cancelled` (`error.message` says why), `skipped` (an invalid line left out with `skip_invalid=true`; `error.message` is its validation text), or `pending` (not decided yet: read the results again once the batch is completed).",
    ].join("\n"),
    access: "api-key",
    params: batchIdParam,
    responses: {
      200: {
        description: "The results as JSONL (application/jsonl).",
        body: {
          schema: z.string().meta({ description: "JSONL: one {custom_id, line, status, decision_id, result, error} per line of the batch." }),
          contentType: "application/jsonl",
          examples: one("One decided, one failed", `${exampleResults.map((line) => JSON.stringify(line)).join("\n")}\n`),
        },
        headers: RATE_LIMIT_HEADERS,
      },
      ...apiKeyErrors,
      404: notFound,
    },
  }),
] as const;
