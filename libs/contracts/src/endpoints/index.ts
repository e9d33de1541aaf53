import type { z } from "zod";
import {
  DecisionRequestSchema,
  ErrorResponseSchema,
  ImageAssetListResponseSchema,
  OpenAiErrorSchema,
  toOpenAiError,
  V1EnsembleRequestSchema,
} from "../index";
import { exampleImageAssetFailure } from "./examples";
import { one, error } from "./shared";
import type { DocumentedExample, DocumentedResponse, Endpoint } from "./define";
import { adminEndpoints } from "./admin";
import { apiKeyEndpoints } from "./api-keys";
import { authEndpoints } from "./auth";
import { assetFailure, imageAssetEndpoints } from "./image-assets";
import { healthEndpoints, siteEndpoints } from "./site";
import { v1Endpoints } from "./v1";
import { openAiEndpoints } from "./openai";
import { mcpEndpoints } from "./mcp";
import { decisionEndpoints } from "./web-decisions";
import { shareEndpoints } from "./shares";
import { exportEndpoints } from "./export";
import { presetEndpoints } from "./presets";
import { batchEndpoints } from "./batches";
import { webBatchEndpoints } from "./web-batches";
import { webhookEndpoints } from "./webhooks";
import { BODY_MESSAGES, SMALL_BODY_LIMIT_BYTES } from "../body-limits";

const DECISION_BODIES: readonly z.ZodType[] = [DecisionRequestSchema, V1EnsembleRequestSchema];

/** Adds an example to a documented answer (a copy: the answers are shared between operations). */
function withExample(response: DocumentedResponse, name: string, example: DocumentedExample): DocumentedResponse {
  return { ...response, body: response.body && { ...response.body, examples: { ...response.body.examples, [name]: example } } };
}

/**
 * Every operation with a body refuses a compressed one (415); the JSON ones without images are
 * bounded at 100 KB (413), and the decision bodies in nesting (400) and in values (413).
 */
function withBodyRefusals<E extends Endpoint>(op: E): E {
  if (!op.body) return op;
  const assets = op.path.startsWith("/api/image-assets");
  const refusal = (description: string, summary: string, detail: string) => (assets ? assetFailure(description, detail) : error(description, one(summary, { detail })));
  const responses = { ...op.responses };
  responses[415] = refusal("The body is compressed (a Content-Encoding other than identity): send it uncompressed.", "Compressed body", BODY_MESSAGES.compressed("gzip"));
  if (op.body.contentType !== "multipart/form-data" && responses[413] === undefined) {
    responses[413] = refusal(`The body is larger than ${SMALL_BODY_LIMIT_BYTES / 1024} KB.`, "Body too large", BODY_MESSAGES.tooLarge(SMALL_BODY_LIMIT_BYTES));
  }
  if (DECISION_BODIES.includes(op.body.schema)) {
    responses[400] = withExample(responses[400]!, "tooDeep", { summary: "Nested too deep", value: { detail: BODY_MESSAGES.tooDeep } });
    responses[413] = withExample(responses[413]!, "tooManyValues", { summary: "Too many JSON values", value: { detail: BODY_MESSAGES.tooManyValues } });
  }
  return { ...op, responses };
}

/** What Node's HTTP server answers, before any route, to request headers past its 16 KB limit. */
const headersTooLarge: DocumentedResponse = { description: "The request's headers are larger than 16 KB in all (Node's limit): answered with no body, before any route." };

/**
 * What every route answers before its own checks (express and the router's parsing, whose
 * messages these examples copy): 431 for oversized headers, and 400 for a path parameter that is
 * not valid percent-encoding, a query name the parser would nest, or a JSON body that does not parse.
 */
function withParsingRefusals<E extends Endpoint>(op: E): E {
  const assets = op.path.startsWith("/api/image-assets");
  const details: Record<string, { summary: string; detail: string }> = {};
  if (op.params) details.badPercentEncoding = { summary: "A path parameter that is not percent-encoding", detail: "Failed to decode param '%ZZ'" };
  const queryName = op.query ? Object.keys(op.query.shape)[0] : undefined;
  if (queryName) details.nestedQueryName = { summary: "A query name the parser would nest", detail: `The query parameter "${queryName}[$ne]" is not allowed: send plain names, each with one value.` };
  if (op.body && op.body.contentType !== "multipart/form-data") details.notJson = { summary: "Not JSON", detail: "The request body is not valid JSON." };
  const responses = { ...op.responses };
  if (Object.keys(details).length > 0) {
    const description = assets ? "The request is invalid: `message` says what to fix." : "The request is invalid: `detail` says what to fix.";
    let badRequest: DocumentedResponse = responses[400] ?? { description, body: { schema: assets ? ImageAssetListResponseSchema : ErrorResponseSchema, examples: {} } };
    for (const [name, { summary, detail }] of Object.entries(details)) {
      badRequest = withExample(badRequest, name, { summary, value: assets ? exampleImageAssetFailure(detail) : { detail } });
    }
    responses[400] = badRequest;
  }
  responses[431] = headersTooLarge;
  return { ...op, responses };
}

const DEFINED = [
  ...v1Endpoints,
  ...batchEndpoints,
  ...webBatchEndpoints,
  ...openAiEndpoints,
  ...mcpEndpoints,
  ...decisionEndpoints,
  ...imageAssetEndpoints,
  ...apiKeyEndpoints,
  ...authEndpoints,
  ...siteEndpoints,
  ...healthEndpoints,
  ...adminEndpoints,
  ...shareEndpoints,
  ...exportEndpoints,
  ...presetEndpoints,
  ...webhookEndpoints,
] as const;

/** An OpenAI-compatible operation documents each error in OpenAI's shape, as its route answers it. */
function withOpenAiErrors<E extends Endpoint>(op: E): E {
  if (op.errorShape !== "openai") return op;
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, response]): [string, DocumentedResponse] => {
      if (Number(status) < 400 || response.body?.schema !== ErrorResponseSchema) return [status, response];
      const examples = Object.fromEntries(
        Object.entries(response.body.examples).map(([name, example]) => [name, { ...example, value: toOpenAiError(Number(status), (example.value as { detail: string }).detail) }]),
      );
      return [status, { ...response, body: { schema: OpenAiErrorSchema, examples } }];
    }),
  );
  return { ...op, responses };
}

type DefinedEndpoint = (typeof DEFINED)[number];
export type EndpointId = DefinedEndpoint["operationId"];
/** Every endpoint by its operation id, with its literal types. */
export type Endpoints = { readonly [E in DefinedEndpoint as E["operationId"]]: E };

/** Every endpoint of the product, in the order the OpenAPI document lists them. */
export const ENDPOINT_LIST: readonly Endpoint[] = DEFINED.map((op) => withOpenAiErrors(withParsingRefusals(withBodyRefusals(op))));

export const ENDPOINTS = Object.fromEntries(ENDPOINT_LIST.map((endpoint) => [endpoint.operationId, endpoint])) as Endpoints;

export { defineEndpoint, TAGS, type Access, type DocumentedBody, type DocumentedExample, type DocumentedOperation, type DocumentedResponse, type Endpoint, type HttpMethod, type Tag } from "./define";
export * from "./examples";
export { JsonRpcErrorSchema } from "./mcp";
export * from "./client";
export { EXAMPLE_SHARE_TOKEN } from "./shares";
export { EXAMPLE_PRESET_ID } from "./presets";
export { EXAMPLE_BATCH_ID } from "./batches";
export { EXAMPLE_WEBHOOK_DELIVERY_ID, EXAMPLE_WEBHOOK_ID } from "./webhooks";
