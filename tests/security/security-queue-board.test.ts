import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AGGREGATE_QUEUE, AUTH_MESSAGES, type AuthResponse } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { ERROR_LEVEL, startLoggedGateway, type GatewayLogLine } from "@sd/testing/fuzz/logged-gateway";
import { callApi } from "@sd/testing/history";
import { queueSession } from "@sd/testing/queue-session";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * Issue 27: the queue board (/admin/queues) must not be one click away from losing decisions. It
 * is read-only unless QUEUE_BOARD_WRITABLE is set; a writable board still refuses to remove, clean
 * or retry a job of a decision in flight. Every action goes through the board's own API, as its
 * buttons send it. A malformed session cookie is a 401, never a 500 with a stack trace.
 */

const BOARD = "/admin/queues";
const JWT_SECRET = "queue-board-security-test-secret-0123456789";
const ADMIN = `board-admin-${randomUUID()}@example.com`;

const emulator = useEmulator();
// Long timeouts: the held decision stays in flight for the whole file.
const stack = useStackWithMail(emulator, { ADMIN_EMAILS: ADMIN, JWT_SECRET, DECISION_TIMEOUT_MS: "120000", VOTE_DEADLINE_MS: "100000" });
let writable: { url: string; close(): Promise<void>; logs: GatewayLogLine[] };
let admin: AuthResponse;
let cookie: string;
let finishedDecision: string;
let heldDecision: string;
let heldAnswer: Promise<unknown> | undefined;

beforeAll(async () => {
  // A second gateway of the same deployment, with the writable board (and its log lines kept).
  writable = await startLoggedGateway({ vars: { ...stack.vars, QUEUE_BOARD_WRITABLE: "true" }, store: stack.store });
  admin = await stack.signIn(ADMIN);
  ({ cookie } = await queueSession(stack.url, admin.tokens.access_token));

  const finished = await callApi(stack.url, "/api/ensembled-llm-categorical-decision-public", null, { body: { question: "Ship it?", categories: ["Yes", "No"] } });
  expect(finished.status).toBe(200);
  finishedDecision = finished.body.decision_id as string;

  // Claude's queue paused (pausing removes nothing, so the writable board allows it): a decision's
  // Claude vote waits while its other votes complete, and the decision stays in flight.
  expect((await boardApi(writable.url, "/queues/vote-claude/pause", "PUT")).status).toBe(200);
  heldAnswer = callApi(stack.url, "/api/ensembled-llm-categorical-decision-public", null, { body: { question: "Hold it?", categories: ["Yes", "No"] } });
  const heldVote = async () => (await jobIds(stack.url, "vote-openai", "completed")).find((id) => id !== `${finishedDecision}-openai`);
  heldDecision = await vi.waitFor(async () => (await heldVote())!.replace(/-openai$/, ""), { timeout: 30_000, interval: 100 });
}, 90_000);
afterAll(async () => {
  // Resumed, the held decision finishes, and the stack stops without waiting for it.
  if (writable) await boardApi(writable.url, "/queues/vote-claude/resume", "PUT");
  await heldAnswer;
  await writable?.close();
});

/** A board API call as the board's page makes it, with the admin's session cookie. */
async function boardApi(baseUrl: string, path: string, method = "GET", sessionCookie: string | null = cookie): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}${BOARD}/api${path}`, { method, headers: sessionCookie ? { cookie: sessionCookie } : {} });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** The ids of a queue's jobs in one state, read through the board. */
async function jobIds(baseUrl: string, queue: string, status: string): Promise<string[]> {
  const answer = await boardApi(baseUrl, `/queues?activeQueue=${queue}&status=${status}&page=1&jobsPerPage=1000`);
  expect(answer.status).toBe(200);
  const shown = (answer.body.queues as Array<{ name: string; jobs: Array<{ id: string }> }>).find((q) => q.name === queue)!;
  return shown.jobs.map((job) => job.id);
}

const jobExists = async (queue: string, jobId: string) => (await boardApi(stack.url, `/queues/${queue}/${jobId}`)).status === 200;

describe("the queue board, read-only by default", () => {
  it("refuses cleaning, retrying, emptying and removing through its API (405), and nothing is removed", async () => {
    const before = await jobIds(stack.url, "vote-openai", "completed");
    expect(before).toContain(`${finishedDecision}-openai`);
    const attempts = [
      ["/queues/vote-openai/clean/completed", "PUT"],
      ["/queues/vote-openai/retry/completed", "PUT"],
      ["/queues/vote-openai/empty", "PUT"],
      ["/queues/vote-openai/obliterate", "PUT"],
      [`/queues/vote-openai/${finishedDecision}-openai/clean`, "PUT"],
      [`/queues/vote-openai/${finishedDecision}-openai/retry`, "PUT"],
      [`/queues/${AGGREGATE_QUEUE}/${finishedDecision}/clean`, "PUT"],
    ] as const;
    for (const [path, method] of attempts) expect((await boardApi(stack.url, path, method)).status, path).toBe(405);
    expect(await jobIds(stack.url, "vote-openai", "completed")).toEqual(before);
    expect(await jobExists(AGGREGATE_QUEUE, finishedDecision)).toBe(true);
    // The board tells its page so: no action buttons.
    const { body } = await boardApi(stack.url, "/queues");
    expect((body.queues as Array<{ readOnlyMode: boolean }>).every((queue) => queue.readOnlyMode)).toBe(true);
  });
});

describe("the queue board with QUEUE_BOARD_WRITABLE=true", () => {
  it("refuses to remove, retry or clean a job of a decision in flight (409, saying why), and the decision keeps its jobs", async () => {
    const held = [
      [`/queues/vote-openai/${heldDecision}-openai/clean`, "PUT"],
      [`/queues/vote-openai/${heldDecision}-openai/retry`, "PUT"],
      [`/queues/vote-claude/${heldDecision}-claude/clean`, "PUT"],
      [`/queues/${AGGREGATE_QUEUE}/${heldDecision}/clean`, "PUT"],
      ["/queues/vote-openai/clean/completed", "PUT"],
      ["/queues/vote-openai/retry/completed", "PUT"],
      ["/queues/vote-claude/clean/wait", "PUT"],
      ["/queues/vote-claude/empty", "PUT"],
      [`/queues/${AGGREGATE_QUEUE}/obliterate`, "PUT"],
    ] as const;
    for (const [path, method] of held) {
      const answer = await boardApi(writable.url, path, method);
      expect(answer.status, path).toBe(409);
      expect(answer.body.message, path).toMatch(/^Refused: \d+ job\(s\) belong to decisions still in flight/);
    }
    expect(await jobExists("vote-openai", `${heldDecision}-openai`)).toBe(true);
    expect(await jobExists("vote-claude", `${heldDecision}-claude`)).toBe(true);
    expect(await jobExists(AGGREGATE_QUEUE, heldDecision)).toBe(true);
  });

  it("removes a job of a finished decision", async () => {
    expect((await boardApi(writable.url, `/queues/vote-gemini/${finishedDecision}-gemini/clean`, "PUT")).status).toBe(204);
    expect(await jobExists("vote-gemini", `${finishedDecision}-gemini`)).toBe(false);
  });
});

describe("the board's session cookie", () => {
  it("a malformed percent-escape is a 401, with no error logged", async () => {
    for (const bad of ["%E0%A4%A", "%", "%zz"]) {
      const answer = await boardApi(writable.url, "/queues", "GET", `sd_queues_session=${bad}`);
      expect(answer.status, bad).toBe(401);
      expect(answer.body).toEqual({ detail: AUTH_MESSAGES.invalidCredentials });
    }
    expect(writable.logs.filter((line) => line.level >= ERROR_LEVEL)).toEqual([]);
  });
});
