import { API_KEY_HEADER } from "@sd/contracts";
import { EXAMPLE_BATCH_ID, EXAMPLE_IDS, EXAMPLE_PRESET_ID, EXAMPLE_SHARE_TOKEN, EXAMPLE_WEBHOOK_DELIVERY_ID, EXAMPLE_WEBHOOK_ID } from "@sd/contracts/endpoints";
import type { DocumentedOperation } from "@sd/contracts/endpoints";
import { compress } from "../faults/heavy-bodies";
import { encodeForm } from "./multipart";
import type { FuzzFixtures, RequestRecipe } from "./recipe";
import { percentEncode, TamperedUserToken, type QueryPair } from "./request-parts";
import { textOf, toJsonText, type Text } from "./tokens";

/** A request exactly as it is written to the socket. */
export interface WireRequest {
  method: string;
  /** Path and query string, already encoded. */
  path: string;
  /** The query string alone (without `?`), as the server parses it. */
  query: string;
  headers: Record<string, string | string[]>;
  contentType: string | null;
  body: Buffer | null;
}

/** The kinds of object a path parameter names, and the fixture that is one. */
export type IdKind = "decision" | "user" | "apiKey" | "imageAsset" | "shareToken" | "preset" | "batch" | "webhook" | "webhookDelivery";

export function fixtureId(fixtures: FuzzFixtures, kind: IdKind): string {
  switch (kind) {
    case "decision":
      return fixtures.decisionId;
    case "user":
      return fixtures.user.id;
    case "apiKey":
      return fixtures.apiKey.id;
    case "imageAsset":
      return fixtures.imageAssetId;
    case "shareToken":
      return fixtures.shareToken ?? EXAMPLE_SHARE_TOKEN;
    case "preset":
      return fixtures.presetId ?? EXAMPLE_PRESET_ID;
    case "batch":
      return fixtures.batchId ?? EXAMPLE_BATCH_ID;
    case "webhook":
      return fixtures.webhookId ?? EXAMPLE_WEBHOOK_ID;
    case "webhookDelivery":
      return EXAMPLE_WEBHOOK_DELIVERY_ID;
  }
}

/** The documented examples name example ids: in a request they become the fixtures' real ones. */
function realIds(text: string, fixtures: FuzzFixtures): string {
  return text
    .replaceAll(EXAMPLE_IDS.decision, fixtures.decisionId)
    .replaceAll(EXAMPLE_IDS.user, fixtures.user.id)
    .replaceAll(EXAMPLE_IDS.apiKey, fixtures.apiKey.id)
    .replaceAll(EXAMPLE_IDS.imageAsset, fixtures.imageAssetId);
}

const queryPart = (text: Text, raw: boolean | undefined) => (raw ? textOf(text) : percentEncode(textOf(text)));

export function queryString(pairs: readonly QueryPair[]): string {
  return pairs.map((pair) => `${queryPart(pair.name, pair.raw)}=${queryPart(pair.value, pair.raw && typeof pair.value === "string" && /^[\w$.-]*$/.test(pair.value))}`).join("&");
}

const headerValue = (value: Text | Text[]): string | string[] => (Array.isArray(value) ? value.map(textOf) : textOf(value));

function tampered(token: string): string {
  const last = token.at(-2) === "A" ? "B" : "A";
  return `${token.slice(0, -2)}${last}${token.at(-1)}`;
}

function credentialHeaders(recipe: RequestRecipe, fixtures: FuzzFixtures): Record<string, string | string[]> {
  switch (recipe.caller) {
    case "anonymous":
      return {};
    case "user":
      return { authorization: `Bearer ${fixtures.user.accessToken}` };
    case "admin":
      return { authorization: `Bearer ${fixtures.admin.accessToken}` };
    case "apiKey":
      return { [API_KEY_HEADER]: fixtures.apiKey.value };
    case "badCredential": {
      const { authorization, apiKey } = recipe.credentials ?? {};
      const headers: Record<string, string | string[]> = {};
      if (authorization instanceof TamperedUserToken) headers.authorization = `Bearer ${tampered(fixtures.user.accessToken)}`;
      else if (authorization !== undefined) headers.authorization = headerValue(authorization);
      if (apiKey !== undefined) headers[API_KEY_HEADER] = headerValue(apiKey);
      return headers;
    }
  }
}

/** Writes `recipe` for `op` with the fixtures' ids and credentials. */
export function toWire(op: DocumentedOperation, idKinds: Readonly<Record<string, IdKind>>, recipe: RequestRecipe, fixtures: FuzzFixtures): WireRequest {
  const path = op.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const bad = recipe.badParams[name];
    return bad === undefined ? percentEncode(fixtureId(fixtures, idKinds[name]!)) : textOf(bad);
  });
  const query = queryString(recipe.query);
  let contentType: string | null = null;
  let body: Buffer | null = null;
  const sent = recipe.body;
  if (sent?.kind === "json") {
    contentType = "application/json";
    body = Buffer.from(realIds(toJsonText(sent.value), fixtures), "utf8");
  } else if (sent?.kind === "raw") {
    contentType = sent.contentType;
    body = Buffer.from(realIds(textOf(sent.text), fixtures), "utf8");
  } else if (sent?.kind === "compressed") {
    contentType = "application/json";
    body = compress(Buffer.from(realIds(sent.text, fixtures), "utf8"), sent.encoding);
  } else if (sent?.kind === "multipart") {
    ({ contentType, body } = encodeForm(sent.form));
  }
  const headers: Record<string, string | string[]> = {
    ...Object.fromEntries(Object.entries(recipe.headers).map(([name, value]) => [name, headerValue(value)])),
    ...credentialHeaders(recipe, fixtures),
  };
  if (contentType !== null) headers["content-type"] = contentType;
  if (sent?.kind === "compressed") headers["content-encoding"] = sent.encoding;
  return { method: op.method.toUpperCase(), path: query ? `${path}?${query}` : path, query, headers, contentType, body };
}
