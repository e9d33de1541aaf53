import type { Batch, BatchList } from "@sd/contracts";
import { ENDPOINTS, endpointPath } from "@sd/contracts/endpoints";
import type { AuthorizationSource } from "../api/authorized";
import { downloadAsUser } from "../api/download";
import { callEndpoint } from "../api/endpoint";

/** The dashboard's batch calls, as the signed-in user (the /api/batches endpoints, never an API key). */

/** TanStack Query keys, each with the user id so the next user on the device never sees the previous user's batches. */
export const batchKeys = {
  all: (userId: string) => ["batches", userId] as const,
  list: (userId: string, limit: number) => ["batches", userId, "list", limit] as const,
};

/** GET /api/batches: the user's batches, newest first. */
export const fetchBatches = (limit: number, session: AuthorizationSource): Promise<BatchList> => callEndpoint(ENDPOINTS.listMyBatches, { query: { limit } }, session);

/** POST /api/batches/{id}/cancel: the batch as it is after the request (possibly still in progress while running lines finish). */
export const cancelBatch = (id: string, session: AuthorizationSource): Promise<Batch> => callEndpoint(ENDPOINTS.cancelMyBatch, { params: { id } }, session);

/** Downloads the results (JSONL) as the signed-in user. */
export function downloadBatchResults(id: string, session: AuthorizationSource): Promise<void> {
  return downloadAsUser(endpointPath(ENDPOINTS.downloadMyBatchResults, { id }), session, `${id}-results.jsonl`);
}
