import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AUTH_MESSAGES,
  DecisionHistoryDetailResponseSchema,
  DecisionHistoryListResponseSchema,
  HISTORY_MESSAGES,
  LIMITS,
  toDecisionHistoryItem,
  type AuthResponse,
  type StoredDecision,
} from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { postJson } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { callApi, storedDecision } from "@sd/testing/history";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const HISTORY = "/api/decision-history";
const DECIDE = "/api/ensembled-llm-categorical-decision";
const PUBLIC = "/api/ensembled-llm-categorical-decision-public";

const emulator = useEmulator();
let smtp: SmtpCapture;
let stack: InProcessStack;

beforeAll(async () => {
  smtp = await SmtpCapture.start();
  stack = await startStack(testEnv(emulator.url, { SMTP_URL: smtp.url }));
});
afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

let n = 0;
/** A new account, so each group of tests starts from an empty history. */
const newUser = () => signInByMail(stack.url, smtp, `history${++n}-${Date.now()}@example.com`);
const api = (path: string, token: string | null) => callApi(stack.url, path, token);
const list = (user: AuthResponse, query = "") => api(`${HISTORY}${query}`, user.tokens.access_token);
const ids = (body: Record<string, unknown>) => (body.decisions as { id: string }[]).map((d) => d.id);

/** Stores decisions of `user` directly, with the exact timestamps a test needs. */
async function seed(user: AuthResponse | null, ...decisions: Partial<StoredDecision>[]): Promise<StoredDecision[]> {
  const stored = decisions.map((d) => storedDecision({ user_id: user?.user.id ?? null, user_email: user?.user.email ?? null, ...d }));
  for (const decision of stored) expect(await stack.store.decisions.insertOnce(decision)).toBe(true);
  return stored;
}

describe("GET /api/decision-history", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  let aliceDecisions: StoredDecision[];
  let bobDecisions: StoredDecision[];
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    aliceDecisions = await seed(
      alice,
      { timestamp: new Date("2024-01-01T08:00:00.000Z"), question: "Oldest?" },
      { timestamp: new Date("2024-03-01T08:00:00.000Z"), question: "Newest?", final_decision: null, vote_counts: {}, total_votes: 0 },
      { timestamp: new Date("2024-02-01T08:00:00.000Z"), question: "Middle?" },
    );
    bobDecisions = await seed(bob, { timestamp: new Date("2024-02-15T08:00:00.000Z") }, { timestamp: new Date("2024-04-01T08:00:00.000Z") });
    await seed(null, { timestamp: new Date("2024-02-20T08:00:00.000Z") });
  });

  it("answers 401 Could not validate credentials without a bearer token or with a bad one", async () => {
    for (const token of [null, "not-a-token"]) {
      for (const query of ["", "?limit=-1", "?category[$ne]=x"]) {
        const answer = await api(`${HISTORY}${query}`, token);
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ detail: AUTH_MESSAGES.invalidCredentials });
      }
    }
  });

  it("lists only the caller's own decisions, newest first, each as the history item of the stored decision", async () => {
    const answer = await list(alice);
    expect(answer.status).toBe(200);
    expect(DecisionHistoryListResponseSchema.parse(answer.body)).toEqual(answer.body);
    const [oldest, newest, middle] = aliceDecisions as [StoredDecision, StoredDecision, StoredDecision];
    expect(answer.body).toEqual({
      success: true,
      decisions: [newest, middle, oldest].map((d) => JSON.parse(JSON.stringify(toDecisionHistoryItem(d))) as unknown),
      message: HISTORY_MESSAGES.listed(3),
      total: 3,
      limit: LIMITS.historyPageSize,
      offset: 0,
    });
    // The owner's view: the items never carry a user id.
    expect(answer.text).not.toContain("user_id");

    const bobs = await list(bob);
    expect(ids(bobs.body)).toEqual([bobDecisions[1]!.id, bobDecisions[0]!.id]);
    expect(bobs.body.total).toBe(2);
  });

  it("answers an empty page for a user without decisions", async () => {
    const carol = await newUser();
    expect((await list(carol)).body).toEqual({ success: true, decisions: [], message: HISTORY_MESSAGES.listed(0), total: 0, limit: 50, offset: 0 });
  });

  it("includes a decision the user makes through the authenticated endpoint, and only in their history", async () => {
    const dave = await newUser();
    const decided = await callApi(stack.url, DECIDE, dave.tokens.access_token, { body: { question: "Ship it today?", categories: ["Yes", "No"] } });
    expect(decided.status).toBe(200);
    const decisionId = decided.body.decision_id as string;

    const page = await list(dave);
    expect(page.body.total).toBe(1);
    const [item] = page.body.decisions as Record<string, unknown>[];
    expect(item).toMatchObject({
      id: decisionId,
      question: "Ship it today?",
      categories: ["Yes", "No"],
      final_decision: decided.body.final_decision,
      total_votes: 3,
      is_authenticated: true,
      user_email: dave.user.email,
    });
    expect(ids((await list(alice)).body)).not.toContain(decisionId);
    expect((await api(`${HISTORY}/${decisionId}`, alice.tokens.access_token)).status).toBe(404);
  });
});

describe("paging", () => {
  let user: AuthResponse;
  let newestFirst: string[];
  beforeAll(async () => {
    user = await newUser();
    // Two decisions share a timestamp: the order must still be total, so pages never overlap.
    const stored = await seed(
      user,
      ...["2024-05-01", "2024-05-02", "2024-05-03", "2024-05-03", "2024-05-04", "2024-05-05", "2024-05-06"].map((day, i) => ({
        timestamp: new Date(`${day}T12:00:00.000Z`),
        question: `Question ${i}?`,
      })),
    );
    newestFirst = ids((await list(user)).body);
    expect(newestFirst).toHaveLength(stored.length);
  });

  it("pages through the decisions newest first without overlap or gap, with the total on every page", async () => {
    const pages = [];
    for (const offset of [0, 3, 6]) {
      const answer = await list(user, `?limit=3&offset=${offset}`);
      expect(answer.body).toMatchObject({ success: true, total: 7, limit: 3, offset });
      pages.push(ids(answer.body));
    }
    expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(newestFirst);
    expect(new Set(pages.flat()).size).toBe(7);

    const days = (await list(user)).body.decisions as { timestamp: string }[];
    const times = days.map((d) => Date.parse(d.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("answers an empty page past the end, and for limit 0, still with the total", async () => {
    expect((await list(user, "?offset=7")).body).toMatchObject({ decisions: [], total: 7, offset: 7 });
    expect((await list(user, `?offset=${LIMITS.maxHistoryOffset}`)).body).toMatchObject({ decisions: [], total: 7 });
    expect((await list(user, "?limit=0")).body).toMatchObject({ decisions: [], total: 7, limit: 0 });
  });

  it("accepts the largest page size", async () => {
    expect((await list(user, `?limit=${LIMITS.maxHistoryPageSize}`)).body).toMatchObject({ total: 7, limit: 200 });
  });
});

describe("filters", () => {
  let user: AuthResponse;
  const d: Record<string, StoredDecision> = {};
  beforeAll(async () => {
    user = await newUser();
    const [d1, d2, d3, d4, d5] = await seed(
      user,
      { timestamp: new Date("2024-03-09T23:59:59.999Z"), question: "What is a.b?", categories: ["Yes", "No"], final_decision: "Yes" },
      { timestamp: new Date("2024-03-10T00:00:00.000Z"), question: "Is axb fine?", categories: ["Tea", "Coffee"], final_decision: "Tea" },
      {
        timestamp: new Date("2024-03-11T12:00:00.000Z"),
        question: "Call f(x) now?",
        categories: ["Yes", "No"],
        final_decision: null,
        vote_counts: {},
        total_votes: 0,
        error_details: { openai: "timeout", gemini: "timeout", claude: "timeout" },
      },
      { timestamp: new Date("2024-03-12T23:59:59.999Z"), question: "WHAT ABOUT A.B AGAIN", categories: ["Red", "Blue"], final_decision: "Red" },
      { timestamp: new Date("2024-03-13T00:00:00.000Z"), question: "yes or no?", categories: ["yes", "no"], final_decision: "yes" },
    );
    Object.assign(d, { d1, d2, d3, d4, d5 });
    // Another user's decisions match every filter below: none may ever show up.
    const other = await newUser();
    await seed(
      other,
      { timestamp: new Date("2024-03-10T00:00:00.000Z"), question: "What is a.b? f(x)", categories: ["Yes", "Tea", "Coffee", "Red"], final_decision: "Yes" },
      { timestamp: new Date("2024-03-11T00:00:00.000Z"), question: "a.b (", categories: ["Yes"], final_decision: null },
    );
  });

  const cases: [string, Record<string, string>, string[]][] = [
    ["dates with both boundary days included", { dateFrom: "2024-03-10", dateTo: "2024-03-12" }, ["d4", "d3", "d2"]],
    ["date-times that are the exact boundaries", { dateFrom: "2024-03-10T00:00:00.000Z", dateTo: "2024-03-12T23:59:59.999Z" }, ["d4", "d3", "d2"]],
    ["a dateFrom one millisecond after a decision", { dateFrom: "2024-03-10T00:00:00.001Z" }, ["d5", "d4", "d3"]],
    ["a dateTo one millisecond before a decision", { dateTo: "2024-03-12T23:59:59.998Z" }, ["d3", "d2", "d1"]],
    ["a date-time with an offset", { dateFrom: "2024-03-10T01:00:00+01:00", dateTo: "2024-03-10T01:00:00+01:00" }, ["d2"]],
    ["one bare date, covering its whole UTC day", { dateFrom: "2024-03-12", dateTo: "2024-03-12" }, ["d4"]],
    ["only a dateFrom", { dateFrom: "2024-03-13" }, ["d5"]],
    ["only a dateTo", { dateTo: "2024-03-09" }, ["d1"]],
    ["a question with a dot, taken literally and case-insensitively", { question: "a.b" }, ["d4", "d1"]],
    ["the same question upper-cased", { question: "A.B" }, ["d4", "d1"]],
    ["a question that is an unbalanced parenthesis", { question: "(" }, ["d3"]],
    ["a question with parentheses", { question: "F(X)" }, ["d3"]],
    ["a question the dot must not match", { question: "axb" }, ["d2"]],
    ["a question that would be a match-all regex", { question: ".*" }, []],
    ["a category, exactly (case matters)", { category: "Yes" }, ["d3", "d1"]],
    ["a category that was offered but not chosen", { category: "Coffee" }, ["d2"]],
    ["a category nobody offered", { category: "Purple" }, []],
    ["decisions with a final decision", { hasDecision: "true" }, ["d5", "d4", "d2", "d1"]],
    ["decisions without a final decision", { hasDecision: "false" }, ["d3"]],
    ["a category and a status together", { category: "Yes", hasDecision: "true" }, ["d1"]],
    ["a question and a date together", { question: "a.b", dateFrom: "2024-03-10" }, ["d4"]],
    ["a blank question (no filter)", { question: "" }, ["d5", "d4", "d3", "d2", "d1"]],
  ];

  it.each(cases)("%s", async (_name, query, expected) => {
    const answer = await list(user, `?${new URLSearchParams(query).toString()}`);
    expect(answer.status).toBe(200);
    expect(ids(answer.body)).toEqual(expected.map((key) => d[key]!.id));
    expect(answer.body.total).toBe(expected.length);
    expect(answer.body.message).toBe(HISTORY_MESSAGES.listed(expected.length));
  });

  it("pages a filtered list with the filtered total", async () => {
    const first = await list(user, "?hasDecision=true&limit=3");
    const second = await list(user, "?hasDecision=true&limit=3&offset=3");
    expect(first.body.total).toBe(4);
    expect(second.body.total).toBe(4);
    expect([...ids(first.body), ...ids(second.body)]).toEqual(["d5", "d4", "d2", "d1"].map((key) => d[key]!.id));
  });
});

describe("bad parameters", () => {
  let user: AuthResponse;
  beforeAll(async () => {
    user = await newUser();
    await seed(user, { timestamp: new Date("2024-03-10T00:00:00.000Z") });
  });

  const limit = "limit must be a whole number from 0 to 200.";
  const offset = `offset must be a whole number from 0 to ${LIMITS.maxHistoryOffset}.`;
  const date = (name: string) => `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time.`;
  const notAllowed = (name: string) => `The query parameter ${JSON.stringify(name)} is not allowed: send plain names, each with one value.`;
  const cases: [string, string, string][] = [
    ["a negative limit", "limit=-1", limit],
    ["a limit over the maximum", "limit=201", limit],
    ["a huge limit", "limit=99999999999999999999", limit],
    ["a non-numeric limit", "limit=ten", limit],
    ["a fractional limit", "limit=1.5", limit],
    ["an empty limit", "limit=", limit],
    ["a limit in exponent notation", "limit=1e2", limit],
    ["a negative offset", "offset=-5", offset],
    ["an offset over the maximum", `offset=${LIMITS.maxHistoryOffset + 1}`, offset],
    ["a non-numeric offset", "offset=abc", offset],
    ["a repeated limit", "limit=10&limit=20", limit],
    ["a repeated category", "category=Yes&category=No", "category must be text."],
    ["a repeated question", "question=a&question=b", "question must be text."],
    ["an operator in brackets", "category[$ne]=x", notAllowed("category[$ne]")],
    ["a regex operator", "question[$regex]=.*", notAllowed("question[$regex]")],
    ["an object in brackets", "dateFrom[gte]=2024-01-01", notAllowed("dateFrom[gte]")],
    ["an array in brackets", "category[]=Yes", notAllowed("category[]")],
    ["a top-level operator", "$where=1", notAllowed("$where")],
    ["a dotted name", "user.id=x", notAllowed("user.id")],
    ["a date that does not exist", "dateFrom=2024-02-31", date("dateFrom")],
    ["a month that does not exist", "dateTo=2024-13-01", date("dateTo")],
    ["an hour that does not exist", "dateTo=2024-03-10T25:00:00Z", date("dateTo")],
    ["a word for a date", "dateFrom=yesterday", date("dateFrom")],
    ["a number for a date", "dateFrom=1710028800000", date("dateFrom")],
    ["a repeated date", "dateTo=2024-03-10&dateTo=2024-03-11", date("dateTo")],
    ["hasDecision=yes", "hasDecision=yes", "hasDecision must be true or false."],
    ["hasDecision=1", "hasDecision=1", "hasDecision must be true or false."],
    ["dateFrom after dateTo", "dateFrom=2024-03-12&dateTo=2024-03-10", "dateFrom must not be after dateTo."],
    ["a question over the maximum length", `question=${"q".repeat(LIMITS.maxQuestionLength + 1)}`, `question must be at most ${LIMITS.maxQuestionLength} characters.`],
  ];

  it.each(cases)("answers 400 for %s, with a clear detail and no data", async (_name, query, detail) => {
    const answer = await list(user, `?${query}`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ detail });
  });
});

describe("GET /api/decision-history/:id", () => {
  let alice: AuthResponse;
  let bob: AuthResponse;
  let mine: StoredDecision;
  let anonymous: StoredDecision;
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    [mine] = (await seed(alice, { question: "Alice's question?", error_details: { claude: "Rate limited" } })) as [StoredDecision];
    [anonymous] = (await seed(null, { question: "Anyone's question?" })) as [StoredDecision];
  });

  it("answers the caller's decision", async () => {
    const answer = await api(`${HISTORY}/${mine.id}`, alice.tokens.access_token);
    expect(answer.status).toBe(200);
    expect(DecisionHistoryDetailResponseSchema.parse(answer.body)).toEqual(answer.body);
    expect(answer.body).toMatchObject({
      success: true,
      decision: JSON.parse(JSON.stringify(toDecisionHistoryItem(mine))) as unknown,
      message: HISTORY_MESSAGES.found,
      reruns: [],
    });
    // Alice's seeded votes (TypeScript, TypeScript, Go) counted again: majority TypeScript, no tie.
    expect((answer.body.compare as { outcomes: { mode: string }[] }).outcomes[0]).toMatchObject({
      mode: "majority_voting",
      source: "recomputed",
      current: true,
      final_decision: "TypeScript",
      tie_break: "none",
    });
  });

  it("answers another user's decision exactly like an unknown id: 404 Decision not found", async () => {
    const others = await api(`${HISTORY}/${mine.id}`, bob.tokens.access_token);
    const unknown = await api(`${HISTORY}/${randomUUID()}`, bob.tokens.access_token);
    expect(others.status).toBe(404);
    expect(others.body).toEqual({ detail: HISTORY_MESSAGES.notFound });
    expect(unknown.status).toBe(others.status);
    expect(unknown.text).toBe(others.text);
    for (const header of ["content-type", "content-length", "etag", "www-authenticate"]) {
      expect(unknown.headers.get(header), header).toBe(others.headers.get(header));
    }
  });

  it("answers 404 for an anonymous decision, even to a signed-in user", async () => {
    expect(await api(`${HISTORY}/${anonymous.id}`, alice.tokens.access_token)).toMatchObject({ status: 404, body: { detail: HISTORY_MESSAGES.notFound } });
  });

  it("treats an id with operator characters as a plain, unknown id", async () => {
    for (const id of ["%24ne", "%7B%22%24ne%22%3Anull%7D", "..%2F..%2Fetc"]) {
      expect(await api(`${HISTORY}/${id}`, alice.tokens.access_token)).toMatchObject({ status: 404, body: { detail: HISTORY_MESSAGES.notFound } });
    }
  });

  it("answers 401 without a bearer token or with a bad one", async () => {
    for (const token of [null, "not-a-token"]) {
      expect(await api(`${HISTORY}/${mine.id}`, token)).toMatchObject({ status: 401, body: { detail: AUTH_MESSAGES.invalidCredentials } });
    }
  });
});

describe("anonymous decisions", () => {
  it("are in nobody's history", async () => {
    const user = await newUser();
    const decided = await postJson(`${stack.url}${PUBLIC}`, { question: "Public one?", categories: ["A", "B"] });
    expect(decided.status).toBe(200);
    expect((await list(user)).body).toMatchObject({ decisions: [], total: 0 });
  });
});

describe("POST /api/decisions/:id/rerun", () => {
  const png = `data:image/png;base64,${Buffer.alloc(64, 7).toString("base64")}`;
  const rerunPath = (id: string) => `/api/decisions/${id}/rerun`;
  let alice: AuthResponse;
  let bob: AuthResponse;
  let firstId: string;
  beforeAll(async () => {
    [alice, bob] = [await newUser(), await newUser()];
    const decided = await callApi(stack.url, DECIDE, alice.tokens.access_token, { body: { question: "Move the launch?", categories: ["Yes", "No", "Later"], images: [png] } });
    expect(decided.status).toBe(200);
    firstId = decided.body.decision_id as string;
  });

  it("asks again in another mode as a new decision of the owner, linked both ways", async () => {
    const rerun = await callApi(stack.url, rerunPath(firstId), alice.tokens.access_token, { body: { ensemble_mode: "judge" } });
    expect(rerun.status).toBe(200);
    expect(rerun.body).toMatchObject({ rerun_of: firstId, question: "Move the launch?" });
    const rerunId = rerun.body.decision_id as string;
    expect(rerunId).not.toBe(firstId);

    const second = await api(`${HISTORY}/${rerunId}`, alice.tokens.access_token);
    expect(second.status).toBe(200);
    expect(second.body.decision).toMatchObject({ rerun_of: firstId, ensemble_mode: "judge", categories: ["Yes", "No", "Later"], final_decision: rerun.body.final_decision });
    // The first decision's image went along, stored as the new decision's own asset.
    expect((second.body.decision as { images: string[] }).images).toHaveLength(1);

    const first = await api(`${HISTORY}/${firstId}`, alice.tokens.access_token);
    expect(first.body.decision).toMatchObject({ rerun_of: null, ensemble_mode: "majority_voting" });
    expect(first.body.reruns).toEqual([expect.objectContaining({ id: rerunId, ensemble_mode: "judge", final_decision: rerun.body.final_decision })]);
    const outcomes = (first.body.compare as { outcomes: { mode: string; source: string; decision_id: string | null }[] }).outcomes;
    expect(outcomes.find((o) => o.mode === "judge")).toMatchObject({ source: "rerun", decision_id: rerunId });
    expect(outcomes.find((o) => o.mode === "gossip")).toMatchObject({ source: "not_run", decision_id: null });
  });

  it("keeps the first decision's mode when the body names only another panel", async () => {
    const rerun = await callApi(stack.url, rerunPath(firstId), alice.tokens.access_token, { body: { models: ["openai", "claude"] } });
    expect(rerun.status).toBe(200);
    const stored = await api(`${HISTORY}/${rerun.body.decision_id as string}`, alice.tokens.access_token);
    expect(stored.body.decision).toMatchObject({ rerun_of: firstId, ensemble_mode: "majority_voting", total_votes: 2 });
    expect(Object.keys((stored.body.decision as { individual_responses: object }).individual_responses)).toEqual(["openai", "claude"]);
  });

  it("answers another user's decision exactly like an unknown id: 404, and starts nothing", async () => {
    const before = await stack.store.decisions.count();
    const others = await callApi(stack.url, rerunPath(firstId), bob.tokens.access_token, { body: {} });
    const unknown = await callApi(stack.url, rerunPath(randomUUID()), bob.tokens.access_token, { body: {} });
    expect(others.status).toBe(404);
    expect(others.body).toEqual({ detail: HISTORY_MESSAGES.notFound });
    expect(unknown.text).toBe(others.text);
    expect(await stack.store.decisions.count()).toBe(before);
    expect((await list(bob)).body.total).toBe(0);
  });

  it("answers 401 without a token, and 400 for an unknown mode or model", async () => {
    expect(await callApi(stack.url, rerunPath(firstId), null, { body: {} })).toMatchObject({ status: 401, body: { detail: AUTH_MESSAGES.invalidCredentials } });
    const badMode = await callApi(stack.url, rerunPath(firstId), alice.tokens.access_token, { body: { ensemble_mode: "dictator" } });
    expect(badMode.status).toBe(400);
    expect(JSON.stringify(badMode.body)).toContain("ensemble_mode must be one of majority_voting, weighted_voting, judge, gossip.");
    const badModel = await callApi(stack.url, rerunPath(firstId), alice.tokens.access_token, { body: { models: ["nope"] } });
    expect(badModel.status).toBe(400);
    expect(JSON.stringify(badModel.body)).toContain("Unknown model: nope.");
  });
});
