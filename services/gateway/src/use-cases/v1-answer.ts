// The mapping lives in @sd/contracts so the aggregator's webhooks send exactly what GET /v1/decisions/{id} answers.
export { toV1CompleteStatus, toV1EnsembleResponse } from "@sd/contracts";
