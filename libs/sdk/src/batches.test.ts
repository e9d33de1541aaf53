import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiKeySchema, BATCH_MESSAGES, MESSAGES, type AuthResponse } from "@sd/contracts";
import { callApi, useStackWithMail } from "@sd/testing";
import { useEmulator } from "@sd/provider-emulator/testing";
import {
  ApiError,
  BatchValidationError,
  NotFoundError,
  QuotaExceededError,
  SmartDecision,
  SmartDecisionError,
  TimeoutError,
  ValidationError,
  type Batch,
  type BatchLineInput,
  type BatchResultLine,
} from "./index";

/**
 * `client.batches` against the running product over HTTP: the all-in-one stack (its batch runner
 * included) on real Redis, the provider emulator behind the real vendor SDKs, API keys created
 * through POST /api/api-keys.
 */

const QUOTA = 3000;
const emulator = useEmulator();
// Two lines of a batch at a time, so a cancel finds lines not started yet.
const stack = useStackWithMail(emulator, { API_KEY_RATE_LIMIT_PER_MINUTE: "10000", API_MONTHLY_QUOTA: String(QUOTA), BATCH_CONCURRENCY: "2" });

async function newClient(options: { fetch?: typeof fetch } = {}): Promise<{ client: SmartDecision; user: AuthResponse }> {
  const user = await stack.signIn();
  const answer = await callApi(stack.url, "/api/api-keys", user.tokens.access_token, { body: { name: "SDK batches" } });
  expect(answer.status, answer.text).toBe(201);
  const key = ApiKeySchema.parse(answer.body).keyvalue!;
  return { client: new SmartDecision({ apiKey: key, baseUrl: stack.url, ...options }), user };
}

/** Every model answers `category` for questions containing `marker`. */
function scriptAnswers(marker: string, category: string, latencyMs?: number): void {
  emulator.addRules({ match: { question_contains: marker }, ...(latencyMs === undefined ? {} : { latency_ms: latencyMs }), respond: { kind: "answer", category, confidence: 0.9 } });
}

async function collect<T>(lines: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const line of lines) all.push(line);
  return all;
}

const tinyLines = (count: number, marker: string): BatchLineInput[] =>
  Array.from({ length: count }, (_, index) => ({ custom_id: `line-${index + 1}`, prompt: `Question ${index + 1} ${marker}?`, valid_responses: ["Yes", "No"] }));

describe("create, waitForCompletion and results", () => {
  it("runs typed lines to completion and streams their results in input order", async () => {
    const { client, user } = await newClient();
    const marker = randomUUID();
    const answers = ["Yes", "No", "No", "Yes", "No"];
    answers.forEach((answer, index) => scriptAnswers(`${marker}-${index + 1}`, answer));
    const lines: BatchLineInput[] = answers.map((_, index) => ({
      custom_id: `ticket-${index + 1}`,
      prompt: `Route ticket ${marker}-${index + 1}`,
      valid_responses: ["Yes", "No"],
      ...(index === 1 ? { mode: "weighted_voting" as const } : {}),
    }));

    const created = await client.batches.create(lines);
    expect(created).toMatchObject({ object: "batch", status: "in_progress", request_counts: { total: 5, completed: 0, failed: 0 }, skipped: { count: 0, errors: [] } });

    const progress: Batch[] = [];
    const done = await client.batches.waitForCompletion(created.id, { intervalMs: 100, timeoutMs: 60_000, onProgress: (batch) => progress.push(batch) });
    expect(done).toMatchObject({ id: created.id, status: "completed", request_counts: { total: 5, completed: 5, failed: 0 } });
    expect(done.completed_at).not.toBeNull();
    expect(progress.at(-1)).toEqual(done);

    const results: BatchResultLine[] = await collect(client.batches.results(created.id));
    expect(results.map((result) => [result.line, result.custom_id, result.status, result.result?.ensemble_decision])).toEqual(
      answers.map((answer, index) => [index + 1, `ticket-${index + 1}`, "completed", answer]),
    );
    // Each result is the decision itself: the same as polling it, and in the key owner's history.
    const first = results[0]!;
    expect(await client.poll(first.decision_id!)).toEqual({ decision_id: first.decision_id, status: "complete", result: first.result });
    const history = await callApi(stack.url, `/api/decision-history?question=${marker}`, user.tokens.access_token);
    expect(history.body.total).toBe(5);
  }, 90_000);

  it("sends a JSONL text or a Blob as it is, and get answers the batch", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    const jsonl = tinyLines(2, marker).map((line) => JSON.stringify(line)).join("\n");
    const fromText = await client.batches.create(jsonl);
    const fromBlob = await client.batches.create(new Blob([`${jsonl}\n`], { type: "application/jsonl" }));
    for (const created of [fromText, fromBlob]) {
      expect(created.request_counts.total).toBe(2);
      // The lines may be decided already: only what does not change is compared.
      const { id, object, created_at, expires_at } = created;
      expect(await client.batches.get(created.id)).toMatchObject({ id, object, created_at, expires_at, status: expect.stringMatching(/^(in_progress|completed)$/), request_counts: { total: 2 } });
    }
    await client.batches.waitForCompletion(fromBlob.id, { intervalMs: 100, timeoutMs: 60_000 });
  }, 90_000);

  it("waitForCompletion gives up with a TimeoutError while lines still run", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    scriptAnswers(marker, "Yes", 1500);
    const created = await client.batches.create(tinyLines(1, marker));
    const error = await client.batches.waitForCompletion(created.id, { intervalMs: 100, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain("0 of 1 lines done");
    expect((await client.batches.waitForCompletion(created.id, { intervalMs: 200, timeoutMs: 60_000 })).status).toBe("completed");
  }, 90_000);
});

describe("results as a stream", () => {
  it("yields the first lines before the rest of the file has arrived, and closes the connection when the loop stops", async () => {
    // A fetch that counts the bytes the SDK has taken off the results body.
    let read = 0;
    let bodyDone = false;
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!String(input).endsWith("/results") || !response.body) return response;
      const tapped = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          transform(chunk, controller) {
            read += chunk.byteLength;
            controller.enqueue(chunk);
          },
          flush() {
            bodyDone = true;
          },
        }),
      );
      return new Response(tapped, { status: response.status, headers: response.headers });
    };
    const { client } = await newClient({ fetch: counting });
    const marker = randomUUID();
    scriptAnswers(marker, "No");
    const count = 2500;
    const created = await client.batches.create(tinyLines(count, marker));
    await client.batches.cancel(created.id);
    await client.batches.waitForCompletion(created.id, { intervalMs: 100, timeoutMs: 60_000 });

    let readAtFirstLine = 0;
    const seen: BatchResultLine[] = [];
    for await (const line of client.batches.results(created.id)) {
      if (seen.length === 0) readAtFirstLine = read;
      seen.push(line);
    }
    expect(seen.map((line) => line.line)).toEqual(Array.from({ length: count }, (_, index) => index + 1));
    expect(seen.map((line) => line.custom_id)).toEqual(tinyLines(count, marker).map((line) => line.custom_id));
    expect(new Set(seen.map((line) => line.status))).toContain("cancelled");
    // The first line came while most of the file was still to come.
    expect(readAtFirstLine).toBeLessThan(read / 2);
    expect(bodyDone).toBe(true);
    const whole = read;

    // Leaving the loop early stops reading: the rest of the body is never taken.
    read = 0;
    bodyDone = false;
    for await (const line of client.batches.results(created.id)) {
      expect(line.line).toBe(1);
      break;
    }
    expect(bodyDone).toBe(false);
    expect(read).toBeLessThan(whole / 2);
  }, 120_000);
});

describe("list and cancel", () => {
  it("awaited, list answers one page with the total; iterated, every batch newest first across pages", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    const ids: string[] = [];
    for (let n = 0; n < 5; n++) ids.push((await client.batches.create(tinyLines(1, `${marker}-${n}`))).id);

    const page = await client.batches.list({ limit: 2 });
    expect(page).toMatchObject({ object: "list", total: 5, limit: 2, offset: 0 });
    expect(page.data.map((batch) => batch.id)).toEqual([ids[4], ids[3]]);
    expect((await client.batches.list({ limit: 2, offset: 4 })).data.map((batch) => batch.id)).toEqual([ids[0]]);

    const all: string[] = [];
    for await (const batch of client.batches.list({ limit: 2 })) all.push(batch.id);
    expect(all).toEqual([...ids].reverse());
  }, 90_000);

  it("cancel stops the lines not started, and a finished batch cannot be cancelled again", async () => {
    const { client } = await newClient();
    const marker = randomUUID();
    scriptAnswers(marker, "Yes", 1500);
    const created = await client.batches.create(tinyLines(6, marker));
    const cancelling = await client.batches.cancel(created.id);
    expect(["in_progress", "cancelled"]).toContain(cancelling.status);

    const done = await client.batches.waitForCompletion(created.id, { intervalMs: 100, timeoutMs: 60_000 });
    expect(done.status).toBe("cancelled");
    const statuses = (await collect(client.batches.results(created.id))).map((line) => line.status);
    expect(statuses).toHaveLength(6);
    expect(statuses.filter((status) => status === "cancelled").length).toBeGreaterThanOrEqual(4);

    const again = await client.batches.cancel(created.id).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(ApiError);
    expect(again).toMatchObject({ status: 409, detail: BATCH_MESSAGES.alreadyFinished("cancelled") });
  }, 90_000);

  it("another user's batch is a NotFoundError on get, cancel and results", async () => {
    const alice = await newClient();
    const bob = await newClient();
    const created = await alice.client.batches.create(tinyLines(1, randomUUID()));
    for (const call of [() => bob.client.batches.get(created.id), () => bob.client.batches.cancel(created.id), () => collect(bob.client.batches.results(created.id))]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({ status: 404, detail: BATCH_MESSAGES.notFound });
    }
  }, 90_000);
});

describe("refused batches", () => {
  const lines = (marker: string): BatchLineInput[] => [
    { custom_id: "ok", prompt: `Fine ${marker}?`, valid_responses: ["Yes", "No"] },
    { custom_id: "one-choice", prompt: `Only one ${marker}?`, valid_responses: ["Yes"] },
    { custom_id: "no-question", prompt: "", valid_responses: ["Yes", "No"] },
  ];

  it("an invalid line refuses the whole batch with a BatchValidationError listing each line by number", async () => {
    const { client } = await newClient();
    const error = await client.batches.create(lines(randomUUID())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BatchValidationError);
    expect(error).toBeInstanceOf(ValidationError);
    const refused = error as BatchValidationError;
    expect(refused.status).toBe(422);
    expect(refused.detail).toBe(BATCH_MESSAGES.invalidLines(2, 100));
    expect(refused.errorCount).toBe(2);
    expect(refused.lines).toEqual([
      { line: 2, custom_id: "one-choice", message: MESSAGES.categoriesRequired.detail },
      { line: 3, custom_id: "no-question", message: MESSAGES.questionRequired.detail },
    ]);
    // Nothing was started.
    expect((await client.batches.list()).total).toBe(0);
  });

  it("with skipInvalid the valid lines run and the invalid ones are listed and answered as skipped", async () => {
    const { client } = await newClient();
    const created = await client.batches.create(lines(randomUUID()), { skipInvalid: true });
    expect(created.request_counts.total).toBe(1);
    expect(created.skipped.count).toBe(2);
    expect(created.skipped.errors.map((skipped) => skipped.line)).toEqual([2, 3]);
    await client.batches.waitForCompletion(created.id, { intervalMs: 100, timeoutMs: 60_000 });
    const results = await collect(client.batches.results(created.id));
    expect(results.map((line) => [line.custom_id, line.status])).toEqual([
      ["ok", "completed"],
      ["one-choice", "skipped"],
      ["no-question", "skipped"],
    ]);
    expect(results[1]!.error).toEqual({ message: MESSAGES.categoriesRequired.detail });
  }, 90_000);

  it("an empty batch is a plain ValidationError (400), not a line refusal", async () => {
    const { client } = await newClient();
    const error = await client.batches.create([]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).not.toBeInstanceOf(BatchValidationError);
    expect(error).toMatchObject({ status: 400, detail: BATCH_MESSAGES.emptyBody });
  });

  it("a batch larger than what remains of the monthly quota is a QuotaExceededError", async () => {
    const { client } = await newClient();
    const error = await client.batches.create(tinyLines(QUOTA + 1, randomUUID())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect(error).toMatchObject({ status: 429, detail: BATCH_MESSAGES.quotaExceeded(QUOTA + 1, QUOTA) });
    expect((error as QuotaExceededError).retryAfter).toBeGreaterThan(0);
  }, 90_000);

  it("an unreachable server is a SmartDecisionError naming the call, also for the results stream", async () => {
    const client = new SmartDecision({ apiKey: "sd_live_x", baseUrl: "http://127.0.0.1:9", timeoutMs: 2000 });
    const error = await collect(client.batches.results("batch_x")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SmartDecisionError);
    expect((error as Error).message).toContain("GET http://127.0.0.1:9/v1/batches/batch_x/results failed");
  });
});
