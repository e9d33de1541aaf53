import {
  ADMIN_MESSAGES,
  API_KEY_MESSAGES,
  AUTH_MESSAGES,
  BATCH_MESSAGES,
  HISTORY_MESSAGES,
  IMAGE_ASSET_MESSAGES,
  PRESET_MESSAGES,
  V1_HEADERS,
  WEBHOOK_MESSAGES,
  toOpenAiError,
  type AuthResponse,
} from "@sd/contracts";
import type { HttpRequest } from "./http";

/**
 * The BOLA/BFLA table: every endpoint that acts on a user's objects or is for admins only, with
 * the answer each kind of caller must get. `security.test.ts` checks that every protected
 * operation of /openapi.json has a row, so a new endpoint fails the suite until it is added here.
 */

/** The owner's objects the table aims at, created through the API before it runs. */
export interface OwnedObjects {
  owner: AuthResponse;
  /** A decision made with the signed-in endpoint, with two images. */
  decisionId: string;
  /** Its image assets (image1, image2). */
  assetIds: readonly string[];
  apiKey: { id: string; keyvalue: string };
  /** A decision made through /v1/ensemble with the owner's key and `idempotencyKey`. */
  v1DecisionId: string;
  idempotencyKey: string;
  v1Body: { prompt: string; valid_responses: string[] };
  /** A queue of the queue view. */
  queueName: string;
  /** A live share link of `decisionId` (its token). */
  shareToken: string;
  /** One of the owner's panel presets. */
  presetId: string;
  /** A batch sent with the owner's key (one line, custom_id `BATCH_CUSTOM_ID`), finished before the table runs. */
  batchId: string;
  /** One of the owner's webhook endpoints, and a delivery of its log (a test event, delivered). */
  webhookId: string;
  webhookDeliveryId: string;
}

/** The custom_id of the owner's batch: its results show it. */
export const BATCH_CUSTOM_ID = "security-suite-line";
const JSONL = { "content-type": "application/jsonl" };

/** A status, or a status and the exact body. */
export type Expected = number | { status: number; body: unknown };

export type Method = "get" | "post" | "put" | "patch" | "delete";

interface RowBase {
  method: Method;
  /** The OpenAPI path template (or the queue view's path) the row stands for. */
  path: string;
  /** What a caller authenticates with: a bearer token (also for optional-bearer), SD-API-KEY, or the queue view's cookie. */
  auth: "bearer" | "api-key" | "queue-session";
  /** The request every caller sends (only the credential differs). */
  request(objects: OwnedObjects): Omit<HttpRequest, "method">;
  /** The owner's object the request names: anyone else must get exactly the answer an unknown id gets. */
  objectId?(objects: OwnedObjects): string;
  /** The call ends the caller's session: each caller makes it with a session of its own. */
  endsSession?: boolean;
}

/** An endpoint of a user's own objects: the owner, another signed-in user (admins included), no one. */
export interface ObjectRow extends RowBase {
  kind: "object";
  owner: Expected;
  /** Also what an admin gets: the admin role gives no access to other users' objects. */
  other: Expected;
  anonymous: Expected;
  /** Text the owner's answer must contain (by default the object id of a GET). */
  ownerSees?(objects: OwnedObjects): string;
}

/** An admin endpoint: a signed-in user who is not an admin, an admin, no one. */
export interface AdminRow extends RowBase {
  kind: "admin";
  nonAdmin: Expected;
  admin: Expected;
  anonymous: Expected;
  /** Sent by the admin after their call, to put things back (the queue view's writes). */
  undo?(objects: OwnedObjects): HttpRequest;
}

export type AccessRow = ObjectRow | AdminRow;

export const rowName = (row: Pick<RowBase, "method" | "path">): string => `${row.method.toUpperCase()} ${row.path}`;

const detail = (status: number, text: string) => ({ status, body: { detail: text } });
const BAD_TOKEN = detail(401, AUTH_MESSAGES.invalidCredentials);
const NO_KEY = detail(401, API_KEY_MESSAGES.missingKey);
/** The OpenAI-compatible routes answer OpenAI's error shape. */
const NO_KEY_OPENAI = { status: 401, body: toOpenAiError(401, API_KEY_MESSAGES.missingKey) };
const NOT_ADMIN = detail(403, ADMIN_MESSAGES.forbidden);
/** Image-asset failures have their own shape. */
const assetFailure = (status: number, message: string) => ({ status, body: { success: false, message, imageAssets: [], total: 0 } });
const NO_ASSETS = { status: 200, body: { success: true, message: IMAGE_ASSET_MESSAGES.listed(0), imageAssets: [], total: 0 } };

/** A request to a fixed path, without a body. */
const at = (path: string) => () => ({ path });
const PNG = `data:image/png;base64,${Buffer.alloc(200, 5).toString("base64")}`;
export const QUEUES = "/admin/queues";

/**
 * The rows. The owner's and the admin's calls run after everyone else's, in this order sorted by
 * method (reads, creates, updates, deletes), so a delete never removes what a later row needs.
 */
export const ACCESS_TABLE: readonly AccessRow[] = [
  // ---- the public API (SD-API-KEY): another user's key finds nothing of the owner's
  {
    kind: "object",
    method: "get",
    path: "/v1/decisions/{id}",
    auth: "api-key",
    request: (o) => ({ path: `/v1/decisions/${o.v1DecisionId}` }),
    objectId: (o) => o.v1DecisionId,
    owner: 200,
    other: detail(404, HISTORY_MESSAGES.notFound),
    anonymous: NO_KEY,
  },
  { kind: "object", method: "get", path: "/v1/decision-history", auth: "api-key", request: at("/v1/decision-history"), ownerSees: (o) => o.decisionId, owner: 200, other: 200, anonymous: NO_KEY },
  { kind: "object", method: "get", path: "/decision-history", auth: "api-key", request: at("/decision-history"), ownerSees: (o) => o.decisionId, owner: 200, other: 200, anonymous: NO_KEY },
  {
    // The owner's Idempotency-Key replays the owner's decision only: another key with it starts its own.
    kind: "object",
    method: "post",
    path: "/v1/ensemble",
    auth: "api-key",
    request: (o) => ({ path: "/v1/ensemble", body: o.v1Body, headers: { [V1_HEADERS.idempotencyKey]: o.idempotencyKey, [V1_HEADERS.prefer]: V1_HEADERS.respondAsync } }),
    ownerSees: (o) => o.v1DecisionId,
    owner: 202,
    other: 202,
    anonymous: NO_KEY,
  },

  // ---- batches (SD-API-KEY): another user's batch is an unknown id
  { kind: "object", method: "get", path: "/v1/batches", auth: "api-key", request: at("/v1/batches"), ownerSees: (o) => o.batchId, owner: 200, other: 200, anonymous: NO_KEY },
  {
    kind: "object",
    method: "post",
    path: "/v1/batches",
    auth: "api-key",
    request: () => ({ path: "/v1/batches", rawBody: '{"custom_id":"table","prompt":"Security table batch?","valid_responses":["A","B"]}\n', headers: JSONL }),
    owner: 202,
    other: 202,
    anonymous: NO_KEY,
  },
  ...(["", "/results"] as const).map(
    (suffix): ObjectRow => ({
      kind: "object",
      method: "get",
      path: `/v1/batches/{id}${suffix}`,
      auth: "api-key",
      request: (o) => ({ path: `/v1/batches/${o.batchId}${suffix}` }),
      objectId: (o) => o.batchId,
      // The results name the batch's lines, not the batch.
      ownerSees: (o) => (suffix === "" ? o.batchId : BATCH_CUSTOM_ID),
      owner: 200,
      other: detail(404, BATCH_MESSAGES.notFound),
      anonymous: NO_KEY,
    }),
  ),
  {
    // The owner's batch is finished: the owner is told so, anyone else that there is no such batch.
    kind: "object",
    method: "post",
    path: "/v1/batches/{id}/cancel",
    auth: "api-key",
    request: (o) => ({ path: `/v1/batches/${o.batchId}/cancel` }),
    objectId: (o) => o.batchId,
    owner: 409,
    other: detail(404, BATCH_MESSAGES.notFound),
    anonymous: NO_KEY,
  },

  // ---- batches in the web app (bearer): the same batches with the session; another user's batch is an unknown id
  { kind: "object", method: "get", path: "/api/batches", auth: "bearer", request: at("/api/batches"), ownerSees: (o) => o.batchId, owner: 200, other: 200, anonymous: BAD_TOKEN },
  ...(["", "/results"] as const).map(
    (suffix): ObjectRow => ({
      kind: "object",
      method: "get",
      path: `/api/batches/{id}${suffix}`,
      auth: "bearer",
      request: (o) => ({ path: `/api/batches/${o.batchId}${suffix}` }),
      objectId: (o) => o.batchId,
      ownerSees: (o) => (suffix === "" ? o.batchId : BATCH_CUSTOM_ID),
      owner: 200,
      other: detail(404, BATCH_MESSAGES.notFound),
      anonymous: BAD_TOKEN,
    }),
  ),
  {
    kind: "object",
    method: "post",
    path: "/api/batches/{id}/cancel",
    auth: "bearer",
    request: (o) => ({ path: `/api/batches/${o.batchId}/cancel` }),
    objectId: (o) => o.batchId,
    owner: 409,
    other: detail(404, BATCH_MESSAGES.notFound),
    anonymous: BAD_TOKEN,
  },

  // ---- the OpenAI-compatible routes (the key as SD-API-KEY or the bearer token): a decision is the key owner's
  { kind: "object", method: "get", path: "/v1/models", auth: "api-key", request: at("/v1/models"), ownerSees: () => "smart-decision", owner: 200, other: 200, anonymous: NO_KEY_OPENAI },
  {
    kind: "object",
    method: "post",
    path: "/v1/chat/completions",
    auth: "api-key",
    request: (o) => ({
      path: "/v1/chat/completions",
      body: {
        model: "smart-decision",
        messages: [{ role: "user", content: o.v1Body.prompt }],
        response_format: { type: "json_schema", json_schema: { name: "decision", schema: { type: "string", enum: o.v1Body.valid_responses } } },
      },
    }),
    owner: 200,
    other: 200,
    anonymous: NO_KEY_OPENAI,
  },

  {
    // The MCP server's tools act as the key's owner: another key's get_decision finds nothing (tests/api/mcp.test.ts).
    kind: "object",
    method: "post",
    path: "/mcp",
    auth: "api-key",
    request: () => ({ path: "/mcp", body: { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }, headers: { accept: "application/json, text/event-stream" } }),
    ownerSees: () => "get_decision",
    owner: 200,
    other: 200,
    anonymous: NO_KEY,
  },

  // ---- decisions and history (bearer)
  {
    kind: "object",
    method: "post",
    path: "/api/ensembled-llm-categorical-decision",
    auth: "bearer",
    request: () => ({ path: "/api/ensembled-llm-categorical-decision", body: { question: "Security table: which door?", categories: ["Left", "Right"] } }),
    owner: 200,
    other: 200,
    anonymous: BAD_TOKEN,
  },
  { kind: "object", method: "get", path: "/api/decision-history", auth: "bearer", request: at("/api/decision-history"), ownerSees: (o) => o.decisionId, owner: 200, other: 200, anonymous: BAD_TOKEN },
  {
    kind: "object",
    method: "get",
    path: "/api/decision-history/{id}",
    auth: "bearer",
    request: (o) => ({ path: `/api/decision-history/${o.decisionId}` }),
    objectId: (o) => o.decisionId,
    owner: 200,
    other: detail(404, HISTORY_MESSAGES.notFound),
    anonymous: BAD_TOKEN,
  },
  {
    // A re-run is the owner's new decision; anyone else's attempt starts nothing and answers as an unknown id.
    kind: "object",
    method: "post",
    path: "/api/decisions/{id}/rerun",
    auth: "bearer",
    request: (o) => ({ path: `/api/decisions/${o.decisionId}/rerun`, body: { ensemble_mode: "weighted_voting" } }),
    objectId: (o) => o.decisionId,
    owner: 200,
    other: detail(404, HISTORY_MESSAGES.notFound),
    anonymous: BAD_TOKEN,
  },

  // ---- share links: only the owner sees, creates or revokes one; the link itself opens for anyone
  ...(["get", "post", "delete"] as const).map(
    (method): ObjectRow => ({
      kind: "object",
      method,
      path: "/api/decisions/{id}/share",
      auth: "bearer",
      request: (o) => ({ path: `/api/decisions/${o.decisionId}/share`, ...(method === "post" ? { body: { include_images: false } } : {}) }),
      objectId: (o) => o.decisionId,
      ownerSees: () => '"shared"',
      owner: method === "post" ? 201 : 200,
      other: detail(404, HISTORY_MESSAGES.notFound),
      anonymous: BAD_TOKEN,
    }),
  ),
  // The export is always the caller's own history: another user's holds none of the owner's decisions.
  ...(["csv", "json"] as const).map(
    (format): ObjectRow => ({ kind: "object", method: "get", path: `/api/exports/decisions.${format}`, auth: "bearer", request: at(`/api/exports/decisions.${format}`), ownerSees: (o) => o.decisionId, owner: 200, other: 200, anonymous: BAD_TOKEN }),
  ),
  {
    // Public by design: whoever has the link (signed in as anyone, or not at all) reads the decision, and nothing more.
    kind: "object",
    method: "get",
    path: "/api/shared/{token}",
    auth: "bearer",
    request: (o) => ({ path: `/api/shared/${o.shareToken}` }),
    ownerSees: () => "Security suite: which plan?",
    owner: 200,
    other: 200,
    anonymous: 200,
  },

  // ---- image assets (optional bearer; failures are {success: false, message, imageAssets: [], total: 0})
  {
    kind: "object",
    method: "get",
    path: "/api/image-assets/decision/{id}",
    auth: "bearer",
    request: (o) => ({ path: `/api/image-assets/decision/${o.decisionId}` }),
    objectId: (o) => o.decisionId,
    ownerSees: (o) => o.assetIds[0]!,
    owner: 200,
    other: NO_ASSETS,
    anonymous: NO_ASSETS,
  },
  {
    kind: "object",
    method: "get",
    path: "/api/image-assets/user/{userId}",
    auth: "bearer",
    request: (o) => ({ path: `/api/image-assets/user/${o.owner.user.id}` }),
    objectId: (o) => o.owner.user.id,
    ownerSees: (o) => o.assetIds[0]!,
    owner: 200,
    other: assetFailure(403, IMAGE_ASSET_MESSAGES.otherUser),
    anonymous: NO_ASSETS,
  },
  {
    kind: "object",
    method: "get",
    path: "/api/image-assets/{id}",
    auth: "bearer",
    request: (o) => ({ path: `/api/image-assets/${o.assetIds[0]}` }),
    objectId: (o) => o.assetIds[0]!,
    owner: 200,
    other: assetFailure(404, IMAGE_ASSET_MESSAGES.notFound),
    anonymous: assetFailure(404, IMAGE_ASSET_MESSAGES.notFound),
  },
  {
    kind: "object",
    method: "post",
    path: "/api/image-assets",
    auth: "bearer",
    request: (o) => ({ path: "/api/image-assets", body: { decisionHistory_id: o.decisionId, label: "image3", image_data: PNG } }),
    objectId: (o) => o.decisionId,
    owner: 201,
    other: assetFailure(404, IMAGE_ASSET_MESSAGES.decisionNotFound),
    anonymous: assetFailure(401, IMAGE_ASSET_MESSAGES.signInRequired),
  },
  {
    kind: "object",
    method: "delete",
    path: "/api/image-assets/{id}",
    auth: "bearer",
    request: (o) => ({ path: `/api/image-assets/${o.assetIds[0]}` }),
    objectId: (o) => o.assetIds[0]!,
    ownerSees: (o) => o.assetIds[0]!,
    owner: 200,
    other: assetFailure(404, IMAGE_ASSET_MESSAGES.notFound),
    anonymous: assetFailure(401, IMAGE_ASSET_MESSAGES.signInRequired),
  },
  {
    kind: "object",
    method: "delete",
    path: "/api/image-assets/decision/{id}",
    auth: "bearer",
    request: (o) => ({ path: `/api/image-assets/decision/${o.decisionId}` }),
    objectId: (o) => o.decisionId,
    owner: 200,
    other: assetFailure(404, IMAGE_ASSET_MESSAGES.decisionNotFound),
    anonymous: assetFailure(401, IMAGE_ASSET_MESSAGES.signInRequired),
  },

  // ---- API keys and usage (bearer)
  { kind: "object", method: "get", path: "/api/api-keys", auth: "bearer", request: at("/api/api-keys"), ownerSees: (o) => o.apiKey.id, owner: 200, other: 200, anonymous: BAD_TOKEN },
  {
    kind: "object",
    method: "post",
    path: "/api/api-keys",
    auth: "bearer",
    request: () => ({ path: "/api/api-keys", body: { name: "Security table" } }),
    owner: 201,
    other: 201,
    anonymous: BAD_TOKEN,
  },
  {
    kind: "object",
    method: "put",
    path: "/api/api-keys/{id}",
    auth: "bearer",
    request: (o) => ({ path: `/api/api-keys/${o.apiKey.id}`, body: { active_status: false } }),
    objectId: (o) => o.apiKey.id,
    owner: 200,
    other: detail(404, API_KEY_MESSAGES.notFound),
    anonymous: BAD_TOKEN,
  },
  {
    kind: "object",
    method: "patch",
    path: "/api/api-keys/{id}",
    auth: "bearer",
    // A limit far above anything the table's calls spend: the owner's key keeps working for the rows after.
    request: (o) => ({ path: `/api/api-keys/${o.apiKey.id}`, body: { monthly_spend_limit_usd: 1000 } }),
    objectId: (o) => o.apiKey.id,
    owner: 200,
    other: detail(404, API_KEY_MESSAGES.notFound),
    anonymous: BAD_TOKEN,
  },
  {
    kind: "object",
    method: "get",
    path: "/api/api-keys/{id}/reveal",
    auth: "bearer",
    request: (o) => ({ path: `/api/api-keys/${o.apiKey.id}/reveal` }),
    objectId: (o) => o.apiKey.id,
    ownerSees: (o) => o.apiKey.keyvalue,
    owner: 200,
    other: detail(404, API_KEY_MESSAGES.notFound),
    anonymous: BAD_TOKEN,
  },
  {
    kind: "object",
    method: "delete",
    path: "/api/api-keys/{id}",
    auth: "bearer",
    request: (o) => ({ path: `/api/api-keys/${o.apiKey.id}` }),
    objectId: (o) => o.apiKey.id,
    owner: 200,
    other: detail(404, API_KEY_MESSAGES.notFound),
    anonymous: BAD_TOKEN,
  },
  { kind: "object", method: "get", path: "/api/usage", auth: "bearer", request: at("/api/usage"), owner: 200, other: 200, anonymous: BAD_TOKEN },

  // ---- panel presets (bearer): another user's preset is an unknown id
  { kind: "object", method: "get", path: "/api/presets", auth: "bearer", request: at("/api/presets"), ownerSees: (o) => o.presetId, owner: 200, other: 200, anonymous: BAD_TOKEN },
  {
    kind: "object",
    method: "post",
    path: "/api/presets",
    auth: "bearer",
    request: () => ({ path: "/api/presets", body: { name: "Security table", settings: { models: ["openai"] } } }),
    owner: 201,
    other: 201,
    anonymous: BAD_TOKEN,
  },
  ...(["get", "patch", "delete"] as const).map(
    (method): ObjectRow => ({
      kind: "object",
      method,
      path: "/api/presets/{id}",
      auth: "bearer",
      request: (o) => ({ path: `/api/presets/${o.presetId}`, body: method === "patch" ? { name: "Renamed by the security table" } : undefined }),
      objectId: (o) => o.presetId,
      owner: 200,
      other: detail(404, PRESET_MESSAGES.notFound),
      anonymous: BAD_TOKEN,
    }),
  ),

  // ---- webhooks (bearer): another user's endpoint, its log and its deliveries are an unknown id
  { kind: "object", method: "get", path: "/api/webhooks", auth: "bearer", request: at("/api/webhooks"), ownerSees: (o) => o.webhookId, owner: 200, other: 200, anonymous: BAD_TOKEN },
  {
    kind: "object",
    method: "post",
    path: "/api/webhooks",
    auth: "bearer",
    request: () => ({ path: "/api/webhooks", body: { url: "https://example.com/security-table", events: ["batch.completed"] } }),
    owner: 201,
    other: 201,
    anonymous: BAD_TOKEN,
  },
  ...(["get", "patch", "delete"] as const).map(
    (method): ObjectRow => ({
      kind: "object",
      method,
      path: "/api/webhooks/{id}",
      auth: "bearer",
      request: (o) => ({ path: `/api/webhooks/${o.webhookId}`, body: method === "patch" ? { description: "Changed by the security table" } : undefined }),
      objectId: (o) => o.webhookId,
      owner: 200,
      other: detail(404, WEBHOOK_MESSAGES.notFound),
      anonymous: BAD_TOKEN,
    }),
  ),
  ...(
    [
      ["post", "rotate-secret", 200],
      ["get", "deliveries", 200],
      ["post", "test", 202],
    ] as const
  ).map(
    ([method, action, owner]): ObjectRow => ({
      kind: "object",
      method,
      path: `/api/webhooks/{id}/${action}`,
      auth: "bearer",
      request: (o) => ({ path: `/api/webhooks/${o.webhookId}/${action}` }),
      objectId: (o) => o.webhookId,
      ...(action === "deliveries" ? { ownerSees: (o: OwnedObjects) => o.webhookDeliveryId } : {}),
      owner,
      other: detail(404, WEBHOOK_MESSAGES.notFound),
      anonymous: BAD_TOKEN,
    }),
  ),
  {
    kind: "object",
    method: "post",
    path: "/api/webhooks/{id}/deliveries/{delivery_id}/resend",
    auth: "bearer",
    request: (o) => ({ path: `/api/webhooks/${o.webhookId}/deliveries/${o.webhookDeliveryId}/resend` }),
    objectId: (o) => o.webhookId,
    owner: 202,
    other: detail(404, WEBHOOK_MESSAGES.notFound),
    anonymous: BAD_TOKEN,
  },

  // ---- account
  { kind: "object", method: "post", path: "/api/auth/logout", auth: "bearer", request: at("/api/auth/logout"), endsSession: true, owner: 200, other: 200, anonymous: BAD_TOKEN },
  {
    kind: "admin",
    method: "get",
    path: "/api/auth/admin-check",
    auth: "bearer",
    request: at("/api/auth/admin-check"),
    nonAdmin: { status: 200, body: { is_admin: false } },
    admin: { status: 200, body: { is_admin: true } },
    anonymous: BAD_TOKEN,
  },

  // ---- the admin dashboard
  ...["/api/admin/usage-stats", "/api/admin/recent-decisions", "/api/admin/system-health"].map(
    (path): AdminRow => ({ kind: "admin", method: "get", path, auth: "bearer", request: at(path), nonAdmin: NOT_ADMIN, admin: 200, anonymous: BAD_TOKEN }),
  ),
  { kind: "admin", method: "post", path: "/api/admin/queues-session", auth: "bearer", request: at("/api/admin/queues-session"), nonAdmin: NOT_ADMIN, admin: 200, anonymous: BAD_TOKEN },
  { kind: "admin", method: "post", path: "/api/admin/storage/acknowledge-damage", auth: "bearer", request: at("/api/admin/storage/acknowledge-damage"), nonAdmin: NOT_ADMIN, admin: 200, anonymous: BAD_TOKEN },

  // ---- the queue view (Bull Board) behind its session cookie; a non-admin's is a correctly signed one
  { kind: "admin", method: "get", path: `${QUEUES}/`, auth: "queue-session", request: at(`${QUEUES}/`), nonAdmin: NOT_ADMIN, admin: 200, anonymous: BAD_TOKEN },
  { kind: "admin", method: "get", path: `${QUEUES}/api/queues`, auth: "queue-session", request: at(`${QUEUES}/api/queues`), nonAdmin: NOT_ADMIN, admin: 200, anonymous: BAD_TOKEN },
  {
    kind: "admin",
    method: "put",
    path: `${QUEUES}/api/queues/{queueName}/pause`,
    auth: "queue-session",
    request: (o) => ({ path: `${QUEUES}/api/queues/${o.queueName}/pause` }),
    nonAdmin: NOT_ADMIN,
    // The board is read-only unless QUEUE_BOARD_WRITABLE: past the admin check, Bull Board itself refuses the write.
    admin: 405,
    anonymous: BAD_TOKEN,
  },
];
