import { z } from "zod";
import { BATCH_LIMITS, BATCH_MESSAGES, BatchListQuerySchema, BatchListSchema, BatchSchema, type Batch } from "../index";
import { EXAMPLE_BATCH_ID } from "./batches";
import { error, json, one, unauthorized } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- batches in the web app (/api/batches)

/**
 * The dashboard's Batches tab: the same batches as /v1/batches, read and cancelled with the
 * session instead of an API key (the web app never holds a key's secret). Batches are still sent
 * with a key (`POST /v1/batches`).
 */

const batchIdParam = z.object({ id: z.string().meta({ description: "The batch's `id`.", example: EXAMPLE_BATCH_ID }) });

const created = new Date(Date.UTC(2025, 8, 8, 10, 0, 0));
const exampleBatch = (status: Batch["status"], completed: number): Batch => ({
  id: EXAMPLE_BATCH_ID,
  object: "batch",
  status,
  request_counts: { total: 2, completed, failed: 0 },
  created_at: created.toISOString(),
  completed_at: status === "in_progress" ? null : new Date(created.getTime() + 95_000).toISOString(),
  expires_at: new Date(created.getTime() + BATCH_LIMITS.retentionDays * 24 * 3600_000).toISOString(),
});

const notFound = error("No batch with this id is the caller's (another user's batch is answered the same).", one("Unknown id", { detail: BATCH_MESSAGES.notFound }));

const EXAMPLE_RESULT_LINE = JSON.stringify({ custom_id: "ticket-1041", line: 1, status: "pending", decision_id: "3c2b1a09-8f7e-4d6c-9b5a-1e2d3c4b5a69", result: null, error: null });

export const webBatchEndpoints = [
  defineEndpoint({
    method: "get",
    path: "/api/batches",
    tag: "batches",
    operationId: "listMyBatches",
    summary: "List my batches (signed in)",
    description: "The signed-in user's batches, sent with any of their API keys, newest first: what `GET /v1/batches` answers, with the session instead of a key.",
    access: "bearer",
    query: BatchListQuerySchema,
    responses: {
      200: {
        description: "A page of batches.",
        body: json(BatchListSchema, one("One batch", { object: "list", data: [exampleBatch("in_progress", 1)], total: 1, limit: BATCH_LIMITS.pageSize, offset: 0 })),
      },
      400: error("`limit` or `offset` is invalid.", one("Bad limit", { detail: `limit must be a whole number from 0 to ${BATCH_LIMITS.maxPageSize}.` })),
      401: unauthorized,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/batches/{id}",
    tag: "batches",
    operationId: "getMyBatch",
    summary: "Get one of my batches (signed in)",
    access: "bearer",
    params: batchIdParam,
    responses: {
      200: { description: "The batch.", body: json(BatchSchema, { running: { summary: "Running", value: exampleBatch("in_progress", 1) } }) },
      401: unauthorized,
      404: notFound,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/batches/{id}/cancel",
    tag: "batches",
    operationId: "cancelMyBatch",
    summary: "Cancel one of my batches (signed in)",
    description: "As `POST /v1/batches/{id}/cancel`: lines not started are cancelled at once, running ones finish; a completed or cancelled batch answers 409.",
    access: "bearer",
    params: batchIdParam,
    responses: {
      200: {
        description: "Cancelling (lines still running) or cancelled.",
        body: json(BatchSchema, {
          cancelling: { summary: "Running lines finishing", value: exampleBatch("in_progress", 1) },
          cancelled: { summary: "Cancelled", value: exampleBatch("cancelled", 1) },
        }),
      },
      401: unauthorized,
      404: notFound,
      409: error("The batch is completed or cancelled already.", one("Finished", { detail: BATCH_MESSAGES.alreadyFinished("completed") })),
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/batches/{id}/results",
    tag: "batches",
    operationId: "downloadMyBatchResults",
    summary: "Download my batch's results (signed in)",
    description: "The results of `GET /v1/batches/{id}/results` as a download: JSONL, one line per line of the batch, in the order they were sent.",
    access: "bearer",
    params: batchIdParam,
    responses: {
      200: {
        description: "The download (application/jsonl).",
        headers: z.object({
          "Content-Disposition": z.string().meta({ description: "Always a download, named after the batch.", example: `attachment; filename="${EXAMPLE_BATCH_ID}-results.jsonl"` }),
        }),
        body: {
          schema: z.string().meta({ description: "JSONL: one {custom_id, line, status, decision_id, result, error} per line of the batch." }),
          contentType: "application/jsonl",
          examples: one("One line, not decided yet", `${EXAMPLE_RESULT_LINE}\n`),
        },
      },
      401: unauthorized,
      404: notFound,
    },
  }),
] as const;
