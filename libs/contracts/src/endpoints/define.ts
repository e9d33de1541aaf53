import type { z } from "zod";
import { API_KEY_HEADER } from "../index";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

/** Who may call an endpoint. */
export type Access = "public" | "bearer" | "optional-bearer" | "api-key";

export interface DocumentedExample {
  summary: string;
  value: unknown;
}

export interface DocumentedBody<S extends z.ZodType = z.ZodType> {
  schema: S;
  /** text/csv: only for an answer (a download); application/jsonl: one JSON value per line (batches). */
  contentType?: "application/json" | "multipart/form-data" | "text/csv" | "application/jsonl";
  examples: Record<string, DocumentedExample>;
}

export interface DocumentedResponse {
  description: string;
  body?: DocumentedBody;
  headers?: z.ZodObject;
}

export interface DocumentedOperation {
  method: HttpMethod;
  /** OpenAPI path template (`{id}`, not express's `:id`). */
  path: string;
  tag: Tag;
  operationId: string;
  summary: string;
  description?: string;
  access: Access;
  /** "openai": every error answer is OpenAI's `{error: {message, type, param, code}}` instead of `{detail}`. */
  errorShape?: "openai";
  params?: z.ZodObject;
  query?: z.ZodObject;
  headers?: z.ZodObject;
  body?: DocumentedBody;
  responses: Record<number, DocumentedResponse>;
}

export const TAGS = {
  v1: { name: "Public API", description: `Decisions and history for your own code, authenticated with the ${API_KEY_HEADER} header.` },
  openai: {
    name: "OpenAI-compatible",
    description: "The ensemble as a model for OpenAI clients (any OpenAI SDK with its base URL set to this server's /v1), authenticated with an API key as the bearer token.",
  },
  mcp: {
    name: "MCP",
    description: "The Model Context Protocol server for agents: Streamable HTTP at /mcp, authenticated with an API key.",
  },
  decisions: { name: "Decisions", description: "The web app's decision and suggestion endpoints." },
  history: { name: "Decision history", description: "A signed-in user's stored decisions." },
  shares: { name: "Share links", description: "A read-only link to one decision, created and revoked by its owner, opened by anyone who has it." },
  batches: {
    name: "Batches",
    description: "Up to 10,000 decisions sent at once as a JSONL file, run in the background at a lower priority than single decisions, with their results read back as JSONL; authenticated with an API key.",
  },
  webhooks: {
    name: "Webhooks",
    description: "A signed-in user's endpoints that receive signed POSTs (Standard Webhooks) when decisions and batches complete, with each endpoint's delivery log.",
  },
  presets: { name: "Panel presets", description: "A signed-in user's named ensemble settings (mode, models, early quorum, rounds, judge), picked in the playground or named by `preset` in POST /v1/ensemble." },
  imageAssets: { name: "Image assets", description: "The images stored with a signed-in user's decisions." },
  apiKeys: { name: "API keys", description: "Create, reveal, switch off and delete API keys; see this month's usage." },
  auth: { name: "Accounts", description: "Magic-link and Google sign-in, token refresh, logout and the admin check." },
  site: { name: "Site", description: "The models behind the playground, the waitlist and job applications." },
  operations: { name: "Operations", description: "Liveness and readiness probes." },
  admin: { name: "Admin", description: "The admin dashboard's statistics and system health (admins only: ADMIN_EMAILS)." },
} as const;
export type Tag = keyof typeof TAGS;

/**
 * One endpoint: method, path, who may call it, its request and answer schemas, errors and
 * examples. The gateway mounts its route from it, the OpenAPI document is generated from it, the
 * clients call through it and the fuzz and security suites enumerate it.
 */
export type Endpoint = DocumentedOperation;

/** Keeps an endpoint's literal types (its id, path and schemas) so routes and clients are typed by it. */
export function defineEndpoint<const E extends DocumentedOperation>(endpoint: E): E {
  return endpoint;
}
