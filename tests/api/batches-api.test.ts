import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  API_KEY_HEADER,
  API_KEY_MESSAGES,
  ApiKeySchema,
  BATCH_MESSAGES,
  BatchCreatedSchema,
  BatchListSchema,
  BatchRejectedSchema,
  BatchResultLineSchema,
  BatchSchema,
  BODY_MESSAGES,
  ENSEMBLE_MODES,
  LIMITS,
  MESSAGES,
  type AuthResponse,
  type BatchResultLine,
} from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi, storedDecision } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/** Small enough to pass with a batch of 70 lines, large enough for every other test's batches of one user. */
const QUOTA = 60;
const emulator = useEmulator();
const stack = useStackWithMail(emulator, { MAGIC_LINK_PER_IP_PER_HOUR: "1000", API_KEY_RATE_LIMIT_PER_MINUTE: "1000", API_MONTHLY_QUOTA: String(QUOTA) });

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
  headers: Headers;
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  const json = /^application\/json\s*(;|$)/.test(response.headers.get("content-type") ?? "");
  return { status: response.status, body: json ? (JSON.parse(text) as Record<string, unknown>) : {}, text, headers: response.headers };
}

/** A new user with an API key: each has a fresh monthly quota. */
async function newKey(): Promise<{ user: AuthResponse; key: string }> {
  const user = await stack.signIn();
  const answer = await callApi(stack.url, "/api/api-keys", user.tokens.access_token, { body: { name: "batches" } });
  expect(answer.status, answer.text).toBe(201);
  return { user, key: ApiKeySchema.parse(answer.body).keyvalue! };
}

const line = (n: number, extra: Record<string, unknown> = {}) => ({ custom_id: `c-${n}`, prompt: `Batch question ${n}?`, valid_responses: ["Yes", "No"], ...extra });
const jsonl = (lines: readonly unknown[]) => `${lines.map((value) => (typeof value === "string" ? value : JSON.stringify(value))).join("\n")}\n`;

function post(key: string, body: string | Buffer, { query = "", contentType = "application/jsonl" }: { query?: string; contentType?: string } = {}): Promise<Answer> {
  return fetch(`${stack.url}/v1/batches${query}`, { method: "POST", headers: { [API_KEY_HEADER]: key, "content-type": contentType }, body }).then(answerOf);
}

const get = (key: string, path: string) => fetch(`${stack.url}${path}`, { headers: { [API_KEY_HEADER]: key } }).then(answerOf);
const cancel = (key: string, id: string) => fetch(`${stack.url}/v1/batches/${id}/cancel`, { method: "POST", headers: { [API_KEY_HEADER]: key } }).then(answerOf);

async function results(key: string, id: string): Promise<BatchResultLine[]> {
  const answer = await get(key, `/v1/batches/${id}/results`);
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get("content-type")).toMatch(/^application\/jsonl/);
  expect(answer.text.endsWith("\n")).toBe(true);
  return answer.text
    .trimEnd()
    .split("\n")
    .map((text) => BatchResultLineSchema.parse(JSON.parse(text)));
}

/** /v1/ensemble's answer to the same fields, to compare texts with. */
async function ensembleRefusal(key: string, body: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${stack.url}/v1/ensemble`, { method: "POST", headers: { [API_KEY_HEADER]: key, "content-type": "application/json" }, body: JSON.stringify(body) });
  const answer = await answerOf(response);
  expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
  return answer.body.detail as string;
}

async function quotaUsed(user: AuthResponse): Promise<number> {
  const usage = await callApi(stack.url, "/api/usage", user.tokens.access_token);
  expect(usage.status, usage.text).toBe(200);
  return (usage.body as { api_requests: number }).api_requests;
}

/**
 * A batch of `count` pending lines written straight to the store, as POST /v1/batches writes one,
 * but never handed to the runner: its lines change only as the test changes them.
 */
async function storedBatch(owner: AuthResponse, count: number): Promise<string> {
  const id = `batch_${randomUUID()}`;
  const expiresAt = new Date(Date.now() + 30 * 24 * 3600_000);
  await stack.store.batchLines.insertMany(
    id,
    expiresAt,
    Array.from({ length: count }, (_, index) => ({
      line: index + 1,
      custom_id: `c-${index + 1}`,
      request: { question: `Batch question ${index + 1}?`, categories: ["Yes", "No"], images: [] },
      status: "pending" as const,
      decision_id: randomUUID(),
      error: null,
    })),
  );
  const keys = await stack.store.apiKeys.listForUser(owner.user.id);
  await stack.store.batches.create({
    id,
    user_id: owner.user.id,
    api_key_id: keys[0]!.id,
    status: "in_progress",
    total: count,
    completed: 0,
    failed: 0,
    skipped: 0,
    created_at: new Date(),
    completed_at: null,
    cancel_requested: false,
    expires_at: expiresAt,
  });
  return id;
}

let alice: { user: AuthResponse; key: string };
let bob: { user: AuthResponse; key: string };
beforeAll(async () => {
  [alice, bob] = [await newKey(), await newKey()];
});

describe("POST /v1/batches", () => {
  it("accepts a JSONL batch with 202, then shows it by id and in the list", async () => {
    const answer = await post(alice.key, jsonl([line(1), line(2, { mode: "judge", panel: ["openai", "claude"] }), line(3)]));
    expect(answer.status, answer.text).toBe(202);
    const created = BatchCreatedSchema.parse(answer.body);
    expect(created).toMatchObject({ object: "batch", status: "in_progress", request_counts: { total: 3, completed: 0, failed: 0 }, completed_at: null, skipped: { count: 0, errors: [] } });
    expect(created.id).toMatch(/^batch_/);
    const days = (Date.parse(created.expires_at) - Date.parse(created.created_at)) / (24 * 3600_000);
    expect(days).toBe(30);

    const read = await get(alice.key, `/v1/batches/${created.id}`);
    expect(read.status, read.text).toBe(200);
    expect(BatchSchema.parse(read.body).id).toBe(created.id);
    const list = BatchListSchema.parse((await get(alice.key, "/v1/batches")).body);
    expect(list.data.map((batch) => batch.id)).toContain(created.id);
  });

  it("accepts the same file as a multipart upload in the field `file`, with skip_invalid as a form field", async () => {
    const form = new FormData();
    form.set("skip_invalid", "true");
    form.set("file", new Blob([jsonl([line(1), { custom_id: "bad", prompt: "", valid_responses: ["A", "B"] }, line(3)])], { type: "application/jsonl" }), "batch.jsonl");
    const response = await fetch(`${stack.url}/v1/batches`, { method: "POST", headers: { [API_KEY_HEADER]: alice.key }, body: form });
    const answer = await answerOf(response);
    expect(answer.status, answer.text).toBe(202);
    const created = BatchCreatedSchema.parse(answer.body);
    expect(created.request_counts.total).toBe(2);
    expect(created.skipped).toEqual({ count: 1, errors: [{ line: 2, custom_id: "bad", message: MESSAGES.questionRequired.detail }] });
  });

  it("refuses the whole batch for any invalid line, listing each by number with /v1/ensemble's text", async () => {
    const longPrompt = "x".repeat(LIMITS.maxQuestionLength + 1);
    const lines = [
      line(1),
      line(2, { valid_responses: ["Only one"] }),
      "{not json",
      line(4, { prompt: longPrompt }),
      "[1, 2]",
      line(6, { mode: "coin_flip" }),
      line(7, { panel: ["no-such-model"] }),
      { prompt: "No id?", valid_responses: ["A", "B"] },
      line(9, { custom_id: "c-1" }),
      line(10, { custom_id: "x".repeat(65) }),
      line(11, { images: ["data:text/plain;base64,aGk="] }),
    ];
    const answer = await post(alice.key, jsonl(lines));
    expect(answer.status, answer.text).toBe(422);
    const refusal = BatchRejectedSchema.parse(answer.body);
    expect(refusal.detail).toBe(BATCH_MESSAGES.invalidLines(10, 100));
    expect(refusal.error_count).toBe(10);
    const expected = [
      { line: 2, custom_id: "c-2", message: await ensembleRefusal(alice.key, { prompt: "Q?", valid_responses: ["Only one"] }) },
      { line: 3, message: BATCH_MESSAGES.notJson },
      { line: 4, custom_id: "c-4", message: await ensembleRefusal(alice.key, { prompt: longPrompt, valid_responses: ["A", "B"] }) },
      { line: 5, message: BATCH_MESSAGES.notJsonObject },
      { line: 6, custom_id: "c-6", message: await ensembleRefusal(alice.key, { prompt: "Q?", valid_responses: ["A", "B"], ensemble_mode: "coin_flip" }) },
      { line: 7, custom_id: "c-7", message: await ensembleRefusal(alice.key, { prompt: "Q?", valid_responses: ["A", "B"], models: ["no-such-model"] }) },
      { line: 8, message: BATCH_MESSAGES.customIdRequired },
      { line: 9, custom_id: "c-1", message: BATCH_MESSAGES.duplicateCustomId("c-1", 1) },
      { line: 10, message: BATCH_MESSAGES.customIdTooLong },
      { line: 11, custom_id: "c-11", message: await ensembleRefusal(alice.key, { prompt: "Q?", valid_responses: ["A", "B"], images: ["data:text/plain;base64,aGk="] }) },
    ];
    expect(refusal.errors).toEqual(expected);
    // The texts really are /v1/ensemble's (not a placeholder both sides share).
    expect(expected[0]!.message).toBe(MESSAGES.categoriesRequired.detail);
    expect(expected[4]!.message).toContain(ENSEMBLE_MODES[0]);
    expect(expected[5]!.message).toContain("no-such-model");
  });

  it("lists the first 100 invalid lines and counts them all", async () => {
    const lines = Array.from({ length: 150 }, (_, index) => line(index + 1, { valid_responses: [] }));
    const answer = await post(alice.key, jsonl(lines));
    expect(answer.status, answer.text).toBe(422);
    const refusal = BatchRejectedSchema.parse(answer.body);
    expect(refusal.error_count).toBe(150);
    expect(refusal.errors).toHaveLength(100);
    expect(refusal.errors.map((error) => error.line)).toEqual(Array.from({ length: 100 }, (_, index) => index + 1));
    expect(refusal.detail).toBe(BATCH_MESSAGES.invalidLines(150, 100));
  });

  it("with skip_invalid=true skips the invalid lines, lists them, and shows them as skipped in the results", async () => {
    const answer = await post(alice.key, jsonl([line(1), line(2, { valid_responses: [] }), "", line(4)]), { query: "?skip_invalid=true" });
    expect(answer.status, answer.text).toBe(202);
    const created = BatchCreatedSchema.parse(answer.body);
    expect(created.request_counts.total).toBe(2);
    expect(created.skipped).toEqual({ count: 1, errors: [{ line: 2, custom_id: "c-2", message: MESSAGES.categoriesRequired.detail }] });
    const lines = await results(alice.key, created.id);
    // The blank line 3 is no line of the batch; numbers stay those of the file. (The others may be decided by now.)
    expect(lines.map((result) => [result.line, result.custom_id, result.status === "skipped"])).toEqual([
      [1, "c-1", false],
      [2, "c-2", true],
      [4, "c-4", false],
    ]);
    expect(lines[1]).toEqual({ custom_id: "c-2", line: 2, status: "skipped", decision_id: null, result: null, error: { message: MESSAGES.categoriesRequired.detail } });
  });

  it("refuses an empty body, another content type, a compressed body and a bad skip_invalid with 4xx and a detail", async () => {
    for (const body of ["", "\n\n  \n"]) {
      const answer = await post(alice.key, body);
      expect([answer.status, answer.body]).toEqual([400, { detail: BATCH_MESSAGES.emptyBody }]);
    }
    const json = await post(alice.key, JSON.stringify(line(1)), { contentType: "application/json" });
    expect([json.status, json.body]).toEqual([400, { detail: BATCH_MESSAGES.unsupportedType }]);
    const compressed = await fetch(`${stack.url}/v1/batches`, {
      method: "POST",
      headers: { [API_KEY_HEADER]: alice.key, "content-type": "application/jsonl", "content-encoding": "gzip" },
      body: jsonl([line(1)]),
    }).then(answerOf);
    expect([compressed.status, compressed.body]).toEqual([415, { detail: BODY_MESSAGES.compressed("gzip") }]);
    const badQuery = await post(alice.key, jsonl([line(1)]), { query: "?skip_invalid=yes" });
    expect([badQuery.status, badQuery.body]).toEqual([400, { detail: "skip_invalid must be true or false." }]);
    const form = new FormData();
    form.set("other", "x");
    const noFile = await fetch(`${stack.url}/v1/batches`, { method: "POST", headers: { [API_KEY_HEADER]: alice.key }, body: form }).then(answerOf);
    expect([noFile.status, noFile.body]).toEqual([400, { detail: BATCH_MESSAGES.fileRequired }]);
  });

  it("refuses 10,001 lines with 413, while 10,000 pass validation (then meet the quota)", async () => {
    const { key } = await newKey();
    const tooMany = await post(key, jsonl(Array.from({ length: 10_001 }, (_, index) => line(index + 1))));
    expect([tooMany.status, tooMany.body]).toEqual([413, { detail: BATCH_MESSAGES.tooManyLines }]);
    // 10,000 lines pass validation; this user's quota (60) then refuses them, which shows the count was reached.
    const most = await post(key, jsonl(Array.from({ length: 10_000 }, (_, index) => line(index + 1))));
    expect(most.status, most.text).toBe(429);
    expect(most.body.detail).toMatch(/^This batch has 10,000 decisions but \d+ remain this month\.$/);
  }, 60_000);

  it("counts every decision against the monthly quota at once, and refuses a batch larger than what remains", async () => {
    const { user, key } = await newKey();
    const used = await quotaUsed(user);
    const accepted = await post(key, jsonl(Array.from({ length: 12 }, (_, index) => line(index + 1))));
    expect(accepted.status, accepted.text).toBe(202);
    // The POST and the 11 other decisions: 12 in all.
    expect(await quotaUsed(user)).toBe(used + 12);
    const remaining = QUOTA - (used + 12);
    const refused = await post(key, jsonl(Array.from({ length: remaining + 1 }, (_, index) => line(index + 1))));
    expect(refused.status, refused.text).toBe(429);
    expect(refused.body).toEqual({ detail: BATCH_MESSAGES.quotaExceeded(remaining + 1, remaining) });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Only the refused POST itself was counted.
    expect(await quotaUsed(user)).toBe(used + 13);
    const fits = await post(key, jsonl(Array.from({ length: remaining - 1 }, (_, index) => line(index + 1))));
    expect(fits.status, fits.text).toBe(202);
    expect(await quotaUsed(user)).toBe(QUOTA);
    const next = await post(key, jsonl([line(1)]));
    expect([next.status, next.body]).toEqual([429, { detail: API_KEY_MESSAGES.quotaExceeded(QUOTA) }]);
  });

  it("answers 401 without a key", async () => {
    const answer = await fetch(`${stack.url}/v1/batches`, { method: "POST", headers: { "content-type": "application/jsonl" }, body: jsonl([line(1)]) }).then(answerOf);
    expect([answer.status, answer.body]).toEqual([401, { detail: API_KEY_MESSAGES.missingKey }]);
  });
});

describe("reading and cancelling batches", () => {
  it("answers another user's batch exactly like an unknown id, on every batch endpoint", async () => {
    const created = BatchCreatedSchema.parse((await post(alice.key, jsonl([line(1)]))).body);
    const unknown = created.id.replace(/.{4}$/, "0000");
    for (const [method, suffix] of [["GET", ""], ["GET", "/results"], ["POST", "/cancel"]] as const) {
      const theirs = await fetch(`${stack.url}/v1/batches/${created.id}${suffix}`, { method, headers: { [API_KEY_HEADER]: bob.key } }).then(answerOf);
      const nobody = await fetch(`${stack.url}/v1/batches/${unknown}${suffix}`, { method, headers: { [API_KEY_HEADER]: bob.key } }).then(answerOf);
      expect([theirs.status, theirs.body], `${method} ${suffix}`).toEqual([404, { detail: BATCH_MESSAGES.notFound }]);
      expect([nobody.status, nobody.body]).toEqual([theirs.status, theirs.body]);
    }
    const bobs = BatchListSchema.parse((await get(bob.key, "/v1/batches")).body);
    expect(bobs.data.map((batch) => batch.id)).not.toContain(created.id);
    expect((await get(alice.key, `/v1/batches/${created.id}`)).status).toBe(200);
  });

  it("pages the list newest first with the total", async () => {
    const { key } = await newKey();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(BatchCreatedSchema.parse((await post(key, jsonl([line(i + 1)]))).body).id);
    const first = BatchListSchema.parse((await get(key, "/v1/batches?limit=2")).body);
    expect(first).toMatchObject({ object: "list", total: 5, limit: 2, offset: 0 });
    const second = BatchListSchema.parse((await get(key, "/v1/batches?limit=2&offset=2")).body);
    const third = BatchListSchema.parse((await get(key, "/v1/batches?limit=2&offset=4")).body);
    expect([...first.data, ...second.data, ...third.data].map((batch) => batch.id)).toEqual([...ids].reverse());
    const bad = await get(key, "/v1/batches?limit=101");
    expect([bad.status, bad.body]).toEqual([400, { detail: "limit must be a whole number from 0 to 100." }]);
  });

  it("streams results in input order: decided lines with the /v1/decisions result, failed, cancelled, skipped and pending ones", async () => {
    const batchId = await storedBatch(alice.user, 5);
    const before = await results(alice.key, batchId);
    expect(before.map((result) => [result.line, result.custom_id, result.status, result.result, result.error])).toEqual([
      [1, "c-1", "pending", null, null],
      [2, "c-2", "pending", null, null],
      [3, "c-3", "pending", null, null],
      [4, "c-4", "pending", null, null],
      [5, "c-5", "pending", null, null],
    ]);
    // Lines 1 and 3 decided, 2 failed, 4 running, as the runner records them.
    const [first, second, third] = before;
    const decision = storedDecision({ id: first!.decision_id!, user_id: alice.user.user.id, user_email: alice.user.user.email, question: "Batch question 1?" });
    await stack.store.decisions.insertOnce(decision);
    await stack.store.decisions.insertOnce(storedDecision({ id: third!.decision_id!, user_id: alice.user.user.id, question: "Batch question 3?" }));
    const lines = stack.store.batchLines;
    expect(await lines.setStatus(batchId, 1, "completed")).toBe(true);
    expect(await lines.setStatus(batchId, 2, "failed", "The decision could not be completed.")).toBe(true);
    expect(await lines.setStatus(batchId, 3, "completed")).toBe(true);
    expect(await lines.setStatus(batchId, 4, "running")).toBe(true);
    const after = await results(alice.key, batchId);
    const status = await get(alice.key, `/v1/decisions/${first!.decision_id}`);
    expect(status.status, status.text).toBe(200);
    expect(after[0]).toEqual({ custom_id: "c-1", line: 1, status: "completed", decision_id: first!.decision_id, result: (status.body as { result: unknown }).result, error: null });
    expect(after[0]!.result?.ensemble_decision).toBe(decision.final_decision);
    expect(after[1]).toEqual({ custom_id: "c-2", line: 2, status: "failed", decision_id: second!.decision_id, result: null, error: { message: "The decision could not be completed." } });
    expect(after[2]!.result?.decision_id).toBe(third!.decision_id);
    // Running is still pending to the client.
    expect(after.slice(3).map((result) => [result.line, result.status])).toEqual([
      [4, "pending"],
      [5, "pending"],
    ]);
  });

  it("streams the results of a large batch in input order", async () => {
    const { key } = await newKey();
    const count = 50;
    const created = BatchCreatedSchema.parse((await post(key, jsonl(Array.from({ length: count }, (_, index) => line(index + 1))))).body);
    const lines = await results(key, created.id);
    expect(lines.map((result) => result.custom_id)).toEqual(Array.from({ length: count }, (_, index) => `c-${index + 1}`));
  });

  it("cancels pending lines at once, lets a running line finish, and refuses to cancel a finished batch with 409", async () => {
    const batchId = await storedBatch(alice.user, 3);
    // Line 1 is running: it must finish, and the batch stays in progress until it has.
    expect(await stack.store.batchLines.setStatus(batchId, 1, "running")).toBe(true);
    const cancelling = await cancel(alice.key, batchId);
    expect(cancelling.status, cancelling.text).toBe(200);
    expect(BatchSchema.parse(cancelling.body).status).toBe("in_progress");
    expect((await results(alice.key, batchId)).map((result) => [result.line, result.status, result.error])).toEqual([
      [1, "pending", null],
      [2, "cancelled", { message: BATCH_MESSAGES.cancelled }],
      [3, "cancelled", { message: BATCH_MESSAGES.cancelled }],
    ]);
    // A cancelled line is never started afterwards.
    expect(await stack.store.batchLines.setStatus(batchId, 2, "running")).toBe(false);
    // Nothing running any more: cancelling again ends it.
    expect(await stack.store.batchLines.setStatus(batchId, 1, "completed")).toBe(true);
    const cancelled = await cancel(alice.key, batchId);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(BatchSchema.parse(cancelled.body)).toMatchObject({ status: "cancelled", completed_at: expect.any(String) });
    const again = await cancel(alice.key, batchId);
    expect([again.status, again.body]).toEqual([409, { detail: BATCH_MESSAGES.alreadyFinished("cancelled") }]);
  });

  it("cancels a batch with nothing running at once", async () => {
    const batchId = await storedBatch(alice.user, 2);
    const cancelled = await cancel(alice.key, batchId);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(BatchSchema.parse(cancelled.body).status).toBe("cancelled");
    expect((await results(alice.key, batchId)).map((result) => result.status)).toEqual(["cancelled", "cancelled"]);
  });
});

describe("running a batch (the batch runner)", () => {
  it("decides every line as the key owner's decision, and answers the results in input order", async () => {
    const { user, key } = await newKey();
    const questions = ["Ship on Friday?", "Hire a contractor?", "Rewrite in Rust?", "Move the standup?", "Order pizza?"];
    const lines = questions.map((prompt, index) => ({ custom_id: `run-${index + 1}`, prompt, valid_responses: ["Yes", "No"] }));
    const accepted = await post(key, jsonl(lines));
    expect(accepted.status, accepted.text).toBe(202);
    const { id } = BatchCreatedSchema.parse(accepted.body);
    // The POST and the 4 other decisions, counted once at acceptance: running them counts nothing more.
    expect(await quotaUsed(user)).toBe(5);

    let reads = 0;
    await expect
      .poll(
        async () => {
          reads++;
          return BatchSchema.parse((await get(key, `/v1/batches/${id}`)).body).status;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe("completed");
    const batch = BatchSchema.parse((await get(key, `/v1/batches/${id}`)).body);
    expect(batch.request_counts).toEqual({ total: 5, completed: 5, failed: 0 });
    expect(batch.completed_at).not.toBeNull();

    const answered = await results(key, id);
    expect(answered.map((result) => [result.line, result.custom_id, result.status, result.error])).toEqual(lines.map((line, index) => [index + 1, line.custom_id, "completed", null]));
    for (const result of answered) {
      const decision = await get(key, `/v1/decisions/${result.decision_id}`);
      expect(decision.body).toEqual({ decision_id: result.decision_id, status: "complete", result: result.result });
      expect(["Yes", "No"]).toContain(result.result?.ensemble_decision);
    }
    // The owner's decisions: in the history, each once.
    const history = await callApi(stack.url, "/api/decision-history?limit=100", user.tokens.access_token);
    const asked = (history.body.decisions as { question: string }[]).map((decision) => decision.question).sort();
    expect(asked).toEqual([...questions].sort());
    // Polls and reads count as requests; the decisions did not count again.
    expect(await quotaUsed(user)).toBe(5 + reads + 1 + 1 + answered.length);
  }, 90_000);
});


describe("BATCH_MAX_BYTES", () => {
  const MAX = 4096;
  const small = useStackWithMail(emulator, { MAGIC_LINK_PER_IP_PER_HOUR: "1000", BATCH_MAX_BYTES: String(MAX) });
  let key: string;
  beforeAll(async () => {
    const user = await small.signIn();
    const answer = await callApi(small.url, "/api/api-keys", user.tokens.access_token, { body: { name: "small" } });
    key = ApiKeySchema.parse(answer.body).keyvalue!;
  });
  const body = (bytes: number) => jsonl(Array.from({ length: Math.ceil(bytes / 80) }, (_, index) => line(index + 1))).slice(0, bytes);
  const tooLarge = { detail: BATCH_MESSAGES.tooLarge(MAX) };

  it("refuses a larger body with 413, by its Content-Length, as it streams in without one, and as a multipart file", async () => {
    const declared = await fetch(`${small.url}/v1/batches`, { method: "POST", headers: { [API_KEY_HEADER]: key, "content-type": "application/jsonl" }, body: body(MAX + 100) }).then(answerOf);
    expect([declared.status, declared.body]).toEqual([413, tooLarge]);

    // Chunked: no Content-Length, so the limit is met while reading.
    const text = body(MAX * 3);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < text.length; i += 1000) controller.enqueue(new TextEncoder().encode(text.slice(i, i + 1000)));
        controller.close();
      },
    });
    const chunked = await fetch(`${small.url}/v1/batches`, {
      method: "POST",
      headers: { [API_KEY_HEADER]: key, "content-type": "application/jsonl" },
      body: stream,
      duplex: "half",
    } as RequestInit).then(answerOf);
    expect([chunked.status, chunked.body]).toEqual([413, tooLarge]);

    const form = new FormData();
    form.set("file", new Blob([body(MAX + 100)], { type: "application/jsonl" }), "batch.jsonl");
    const multipart = await fetch(`${small.url}/v1/batches`, { method: "POST", headers: { [API_KEY_HEADER]: key }, body: form }).then(answerOf);
    expect([multipart.status, multipart.body]).toEqual([413, tooLarge]);

    // Just under the limit is a batch.
    const fits = await fetch(`${small.url}/v1/batches`, { method: "POST", headers: { [API_KEY_HEADER]: key, "content-type": "application/x-ndjson" }, body: jsonl([line(1), line(2)]) }).then(answerOf);
    expect(fits.status, fits.text).toBe(202);
  });
});

describe("a batch of 10,000 lines", () => {
  const big = useStackWithMail(emulator, { MAGIC_LINK_PER_IP_PER_HOUR: "1000", API_MONTHLY_QUOTA: "20000" });

  it("is accepted, cancelled, and its 10,000 results stream back in input order", async () => {
    const user = await big.signIn();
    const created = await callApi(big.url, "/api/api-keys", user.tokens.access_token, { body: { name: "big" } });
    const key = ApiKeySchema.parse(created.body).keyvalue!;
    const count = 10_000;
    const started = Date.now();
    const accepted = await fetch(`${big.url}/v1/batches`, {
      method: "POST",
      headers: { [API_KEY_HEADER]: key, "content-type": "application/jsonl" },
      body: jsonl(Array.from({ length: count }, (_, index) => line(index + 1))),
    }).then(answerOf);
    expect(accepted.status, accepted.text).toBe(202);
    const acceptMs = Date.now() - started;
    const { id } = BatchCreatedSchema.parse(accepted.body);
    const cancelled = await fetch(`${big.url}/v1/batches/${id}/cancel`, { method: "POST", headers: { [API_KEY_HEADER]: key } }).then(answerOf);
    expect(cancelled.status, cancelled.text).toBe(200);

    const answer = await fetch(`${big.url}/v1/batches/${id}/results`, { headers: { [API_KEY_HEADER]: key } });
    expect(answer.status).toBe(200);
    const lines = (await answer.text()).trimEnd().split("\n").map((text) => BatchResultLineSchema.parse(JSON.parse(text)));
    expect(lines.map((result) => result.line)).toEqual(Array.from({ length: count }, (_, index) => index + 1));
    // Cancelled at once: at most the lines the runner had started are decided (or still running).
    expect(lines.filter((result) => result.status === "cancelled").length).toBeGreaterThan(count - 500);
    console.log(`batches: accepted ${count} lines in ${acceptMs} ms`);
  }, 120_000);
});
