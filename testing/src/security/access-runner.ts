import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { ApiAnswer } from "../history";
import { QUEUES, type AccessRow, type Expected, type Method, type OwnedObjects } from "./access-table";
import type { Caller, SignInStack } from "./callers";
import { send, type Credential } from "./http";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** An id shaped like `id` (every UUID in it replaced by a fresh one) that names nothing. */
export function unknownLike(id: string): string {
  if (!id.match(UUID)) throw new Error(`cannot make an unknown id like ${id}: it holds no UUID`);
  return id.replace(UUID, () => randomUUID());
}

/** What `caller` presents to `row`: nothing when anonymous; a fresh session when the call ends it. */
async function credentialFor(stack: SignInStack, row: AccessRow, caller: Caller): Promise<Credential> {
  const { session } = caller;
  if (!session) return {};
  if (row.auth === "api-key") return { apiKey: caller.apiKey!.keyvalue };
  if (row.auth === "queue-session") return { cookie: caller.queueCookie! };
  if (row.endsSession) return { bearer: (await stack.signIn(session.user.email)).tokens.access_token };
  return { bearer: session.tokens.access_token };
}

/** Sends `row`'s request as `caller`; with `unknownId`, the owner's object id in it is replaced by an unknown one. */
export async function callRow(stack: SignInStack, row: AccessRow, objects: OwnedObjects, caller: Caller, unknownId = false): Promise<ApiAnswer> {
  let request = { method: row.method, ...row.request(objects) };
  if (unknownId) {
    const id = row.objectId!(objects);
    request = JSON.parse(JSON.stringify(request).replaceAll(id, unknownLike(id))) as typeof request;
  }
  return send(stack.url, request, await credentialFor(stack, row, caller));
}

/** Asserts the status (and the body, when given) naming the row and the caller. */
export function expectAnswer(answer: ApiAnswer, expected: Expected, where: string): void {
  const status = typeof expected === "number" ? expected : expected.status;
  expect(answer.status, `${where}: status (answer ${answer.text.slice(0, 300)})`).toBe(status);
  if (typeof expected !== "number") expect(answer.body, `${where}: body`).toEqual(expected.body);
}

/** The owner's ids, key and email: none may appear in an answer to anyone else. */
export function ownerSecrets(objects: OwnedObjects): string[] {
  return [objects.decisionId, objects.v1DecisionId, ...objects.assetIds, objects.apiKey.id, objects.apiKey.keyvalue, objects.owner.user.id, objects.owner.user.email, objects.presetId, objects.batchId, objects.webhookId, objects.webhookDeliveryId];
}

/** The answers `caller` must get from `row` when it is not the owner (for object rows) and not an admin (for admin rows). */
export function expectedFor(row: AccessRow, caller: Caller): Expected {
  if (caller.role === "anonymous") return row.anonymous;
  if (row.kind === "object") return row.other;
  return row.nonAdmin;
}

/** Who runs a row's unprivileged calls: everyone but its owner (object rows) or its admin (admin rows). */
export function unprivilegedCallers(row: AccessRow, callers: { owner: Caller; other: Caller; admin: Caller; anonymous: Caller }): Caller[] {
  return row.kind === "object" ? [callers.other, callers.admin, callers.anonymous] : [callers.owner, callers.other, callers.anonymous];
}

const METHOD_ORDER: Record<Method, number> = { get: 0, post: 1, put: 2, patch: 2, delete: 3 };

/** The rows in the order their owner and admin calls run: reads, creates, updates, deletes (table order within each). */
export function privilegedOrder(rows: readonly AccessRow[]): AccessRow[] {
  return rows.map((row, index) => ({ row, index })).sort((a, b) => METHOD_ORDER[a.row.method] - METHOD_ORDER[b.row.method] || a.index - b.index).map(({ row }) => row);
}

/**
 * Everything of the owner's a write could change, read back as the owner (and the queue view's
 * paused flags, as the admin): equal before and after everyone else's calls means nothing changed.
 */
export async function ownerView(stack: SignInStack, objects: OwnedObjects, admin: Caller): Promise<Record<string, unknown>> {
  const asOwner = (path: string) => send(stack.url, { method: "get", path }, { bearer: objects.owner.tokens.access_token });
  const [decision, assets, keys, reveal, usage, presets, queues] = await Promise.all([
    asOwner(`/api/decision-history/${objects.decisionId}`),
    asOwner(`/api/image-assets/decision/${objects.decisionId}`),
    asOwner("/api/api-keys"),
    asOwner(`/api/api-keys/${objects.apiKey.id}/reveal`),
    asOwner("/api/usage"),
    asOwner("/api/presets"),
    send(stack.url, { method: "get", path: `${QUEUES}/api/queues` }, { cookie: admin.queueCookie! }),
  ]);
  for (const [what, answer] of Object.entries({ decision, assets, keys, reveal, usage, presets, queues })) {
    // A failed read on both sides would compare equal and prove nothing.
    if (answer.status !== 200) throw new Error(`reading the owner's ${what} answered ${answer.status}: ${answer.text}`);
  }
  const paused = (queues.body.queues as { name: string; isPaused: boolean }[]).map(({ name, isPaused }) => [name, isPaused]);
  return { decision: decision.body, assets: assets.body, keys: keys.body, reveal: reveal.body, usage: usage.body, presets: presets.body, paused };
}
