import type { RequestHandler, Router } from "express";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { signedInUser } from "../auth";
import { EndpointRouter } from "../http/endpoint-router";
import { sendJsonl } from "../http/download-stream";
import type { BatchUseCases } from "../use-cases/batches";

/** A batch id as a file name: only the characters ids are made of (the id is the caller's text until the store has found it). */
const resultsFileName = (batchId: string) => `${batchId.replace(/[^A-Za-z0-9_-]/g, "")}-results.jsonl`;

/**
 * /api/batches (bearer): the dashboard's view of the signed-in user's batches, through the same use
 * case as /v1/batches, with the session instead of an API key. Another user's batch is a 404.
 */
export function webBatchRoutes(batches: BatchUseCases, requireUser: RequestHandler): Router {
  return new EndpointRouter("/api", { bearer: requireUser })
    .mount(ENDPOINTS.listMyBatches, {
      handler: async ({ query, res }) => ({ status: 200, body: await batches.list(signedInUser(res).userId, query) }),
    })
    .mount(ENDPOINTS.getMyBatch, {
      handler: async ({ params, res }) => ({ status: 200, body: await batches.get(params.id, signedInUser(res).userId) }),
    })
    .mount(ENDPOINTS.cancelMyBatch, {
      handler: async ({ params, res }) => ({ status: 200, body: await batches.cancel(params.id, signedInUser(res).userId) }),
    })
    .mount(ENDPOINTS.downloadMyBatchResults, {
      handler: async ({ params, res }) => sendJsonl(res, await batches.results(params.id, signedInUser(res).userId), { "Content-Disposition": `attachment; filename="${resultsFileName(params.id)}"` }),
    }).router;
}
