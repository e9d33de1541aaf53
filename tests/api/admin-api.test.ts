import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allInOneEnv, loadEnv, providersFromEnv } from "@sd/config";
import {
  ADMIN_MESSAGES,
  AUTH_MESSAGES,
  RecentDecisionsResponseSchema,
  SystemHealthSchema,
  UsageStatsResponseSchema,
  type AuthResponse,
  type StoredDecision,
  type SystemHealth,
  type UsageStats,
} from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { startProviderWorkers, type ProviderWorkers } from "@sd/provider-worker";
import { createLogger } from "@sd/telemetry";
import { callApi, storedDecision } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

const ADMIN_EMAIL = "admin@example.com";
const ENDPOINTS = ["/api/admin/usage-stats", "/api/admin/recent-decisions", "/api/admin/system-health"] as const;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const emulator = useEmulator();
/** A decision of `user` (null: anonymous) stamped `ago` ms before now. */
function decision(user: { id: string; email: string } | null, ago: number, fields: Partial<StoredDecision> = {}): StoredDecision {
  return storedDecision({
    user_id: user?.id ?? null,
    user_email: user?.email ?? null,
    is_authenticated: user !== null,
    timestamp: new Date(Date.now() - ago),
    ...fields,
  });
}

describe("admin usage stats and recent decisions over seeded decisions", () => {
  const stack = useStackWithMail(emulator, { ADMIN_EMAILS: ADMIN_EMAIL });
  let admin: AuthResponse;
  const alice = { id: "u-alice", email: "alice@example.com" };
  const bob = { id: "u-bob", email: "bob@example.com" };
  let seeded: Record<string, StoredDecision>;

  beforeAll(async () => {
    admin = await stack.signIn(ADMIN_EMAIL);
    const err = (providers: Record<string, string>) => ({ error_details: providers });
    seeded = {
      a1: decision(alice, 10 * MINUTE, { final_decision: "TypeScript", processing_time_ms: 1000, user_ip: "10.0.0.1", question: "a1?" }),
      a2: decision(alice, 2 * HOUR, { final_decision: "Go", processing_time_ms: 2000, user_ip: "10.0.0.1", ...err({ claude: "timeout" }) }),
      b1: decision(bob, DAY - MINUTE, { final_decision: "TypeScript", processing_time_ms: 3000, user_ip: "10.0.0.2" }),
      b2: decision(bob, DAY + MINUTE, { final_decision: "Rust", processing_time_ms: 4000, user_ip: "10.0.0.2" }),
      anon1: decision(null, 30 * MINUTE, {
        final_decision: null,
        vote_counts: {},
        processing_time_ms: 500,
        user_ip: "198.51.100.1",
        question: "anon1?",
        categories: ["A", "B", "C", "D", "E"],
        ...err({ openai: "rate limited", gemini: "timeout" }),
      }),
      anon2: decision(null, 3 * DAY, { final_decision: "Python", processing_time_ms: 600, user_ip: "198.51.100.1" }),
      anon3: decision(null, 7 * DAY - MINUTE, { final_decision: "Java", processing_time_ms: 700, user_ip: "198.51.100.2" }),
      weekOut: decision(alice, 7 * DAY + MINUTE, { final_decision: "Kotlin", processing_time_ms: 800, user_ip: "10.0.0.1" }),
      monthIn: decision(bob, 30 * DAY - MINUTE, { final_decision: "Swift", processing_time_ms: 900, user_ip: "10.0.0.3" }),
      monthOut: decision(bob, 30 * DAY + MINUTE, { final_decision: "Swift", processing_time_ms: 5000, user_ip: "10.0.0.4" }),
    };
    for (const stored of Object.values(seeded)) expect(await stack.store.decisions.insertOnce(stored)).toBe(true);
  });

  const stats = async (query = ""): Promise<UsageStats> => {
    const answer = await callApi(stack.url, `/api/admin/usage-stats${query}`, admin.tokens.access_token);
    expect(answer.status, answer.text).toBe(200);
    return UsageStatsResponseSchema.parse(answer.body).stats;
  };

  it("answers 401 without a token or with a bad one, and 403 for a signed-in non-admin, on every admin endpoint", async () => {
    const someone = await stack.signIn();
    for (const path of ENDPOINTS) {
      for (const token of [null, "not-a-token"]) {
        const answer = await callApi(stack.url, path, token);
        expect(answer.status, path).toBe(401);
        expect(answer.body).toEqual({ detail: AUTH_MESSAGES.invalidCredentials });
      }
      const forbidden = await callApi(stack.url, `${path}?period=day`, someone.tokens.access_token);
      expect(forbidden.status, path).toBe(403);
      expect(forbidden.body).toEqual({ detail: ADMIN_MESSAGES.forbidden });
    }
  });

  it("answers 400 for a bad or repeated period on every admin endpoint", async () => {
    for (const path of ENDPOINTS) {
      for (const query of ["?period=year", "?period=", "?period=day&period=week", "?period=DAY"]) {
        const answer = await callApi(stack.url, `${path}${query}`, admin.tokens.access_token);
        expect(answer.status, `${path}${query}`).toBe(400);
        expect(answer.body).toEqual({ detail: ADMIN_MESSAGES.badPeriod });
      }
    }
  });

  it("counts the last day: a decision just inside the window counts, one just outside does not", async () => {
    const day = await stats("?period=day");
    expect(day.period).toBe("day");
    // a1, a2, b1 (23h59m ago), anon1; b2 (24h01m ago) is outside.
    expect(day.summary).toEqual({
      total_decisions: 4,
      recent_activity: 2,
      decisions_with_errors: 2,
      decisions_with_results: 2,
      error_rate_percentage: 50,
      unique_authenticated_users: 2,
      unique_ips: 3,
      authenticated_decisions: 3,
      anonymous_decisions: 1,
    });
    expect(day.performance).toEqual({ avg_processing_time_ms: 1625, total_processing_time_seconds: 6.5 });
    expect(day.categories.top_categories).toEqual([
      { category: "TypeScript", count: 2 },
      { category: "Go", count: 1 },
    ]);
    expect(day.active_users).toEqual([
      { user_id: "u-alice", display_name: "alice", is_authenticated: true, decision_count: 2 },
      { user_id: "u-bob", display_name: "bob", is_authenticated: true, decision_count: 1 },
      { user_id: "anonymous", display_name: "Anonymous", is_authenticated: false, decision_count: 1 },
    ]);
    expect(day.active_ips).toEqual([{ ip: "198.51.100.1", count: 1 }]);
  });

  it("counts the last week (7 days) and the last month (30 days) with their boundaries", async () => {
    const week = await stats("?period=week");
    // Adds b2, anon2 and anon3 (6d23h59m ago); weekOut (7d01m ago) is outside.
    expect(week.summary).toMatchObject({
      total_decisions: 7,
      decisions_with_errors: 2,
      decisions_with_results: 5,
      error_rate_percentage: 28.57,
      unique_authenticated_users: 2,
      unique_ips: 4,
      authenticated_decisions: 4,
      anonymous_decisions: 3,
    });
    expect(week.performance).toEqual({ avg_processing_time_ms: 1685.71, total_processing_time_seconds: 11.8 });
    expect(week.active_ips).toEqual([
      { ip: "198.51.100.1", count: 2 },
      { ip: "198.51.100.2", count: 1 },
    ]);
    expect(week.active_users.map((u) => [u.user_id, u.decision_count])).toEqual([
      ["anonymous", 3],
      ["u-alice", 2],
      ["u-bob", 2],
    ]);

    // The default period is month: adds weekOut and monthIn (29d23h59m ago); monthOut is outside.
    const month = await stats();
    expect(month.period).toBe("month");
    expect(month.summary).toMatchObject({ total_decisions: 9, error_rate_percentage: 22.22, unique_ips: 5, authenticated_decisions: 6, anonymous_decisions: 3 });
    expect(month.performance.total_processing_time_seconds).toBe(13.5);
  });

  it("lists the top categories limited to 5, most frequent first, ties by name", async () => {
    const month = await stats("?period=month");
    // Final decisions in the month: TypeScript 2; Go, Rust, Python, Java, Kotlin, Swift 1 each.
    expect(month.categories.top_categories).toEqual([
      { category: "TypeScript", count: 2 },
      { category: "Go", count: 1 },
      { category: "Java", count: 1 },
      { category: "Kotlin", count: 1 },
      { category: "Python", count: 1 },
    ]);
  });

  it("gives the daily usage of the last 7 UTC days, oldest first, days without decisions as 0", async () => {
    const { trends } = await stats("?period=day");
    const today = Math.floor(Date.now() / DAY) * DAY;
    const dates = Array.from({ length: 7 }, (_, i) => new Date(today - (6 - i) * DAY).toISOString().slice(0, 10));
    const expected = new Map(dates.map((date) => [date, 0]));
    for (const stored of Object.values(seeded)) {
      const date = stored.timestamp.toISOString().slice(0, 10);
      if (expected.has(date)) expected.set(date, (expected.get(date) ?? 0) + 1);
    }
    expect(trends.daily_usage).toEqual(dates.map((date) => ({ date, count: expected.get(date) })));
    // Decisions 3 days ago and within the last day leave the days 4 and 5 days ago empty.
    expect(trends.daily_usage[1]?.count).toBe(0);
    expect(trends.daily_usage.reduce((sum, day) => sum + day.count, 0)).toBeGreaterThanOrEqual(5);
  });

  it("shows an active user by their account name when they have one", async () => {
    const named = await stack.signIn();
    // Magic-link accounts have no name: the part of the email before "@" is shown.
    await stack.store.decisions.insertOnce(decision({ id: named.user.id, email: named.user.email }, HOUR, { user_ip: "10.0.0.1" }));
    const month = await stats();
    const row = month.active_users.find((user) => user.user_id === named.user.id);
    expect(row).toEqual({ user_id: named.user.id, display_name: named.user.email.split("@")[0], is_authenticated: true, decision_count: 1 });
  });

  it("lists the period's decisions newest first with the Recent Activity fields (default period day)", async () => {
    const answer = await callApi(stack.url, "/api/admin/recent-decisions", admin.tokens.access_token);
    expect(answer.status, answer.text).toBe(200);
    const body = RecentDecisionsResponseSchema.parse(answer.body);
    expect(body.period).toBe("day");
    const ids = body.decisions.map((d) => d.id).filter((id) => Object.values(seeded).some((s) => s.id === id));
    expect(ids).toEqual([seeded.a1!.id, seeded.anon1!.id, seeded.a2!.id, seeded.b1!.id]);
    const anon1 = body.decisions.find((d) => d.id === seeded.anon1!.id);
    expect(anon1).toEqual({
      id: seeded.anon1!.id,
      question: "anon1?",
      timestamp: seeded.anon1!.timestamp.toISOString(),
      user_email: null,
      user_ip: "198.51.100.1",
      ensemble_mode: "majority_voting",
      processing_time_ms: 500,
      categories: ["A", "B", "C", "D", "E"],
      final_decision: null,
      error_details: { openai: "rate limited", gemini: "timeout" },
    });
    expect(body.decisions.find((d) => d.id === seeded.a1!.id)).toMatchObject({ user_email: "alice@example.com", final_decision: "TypeScript", error_details: {} });

    const week = RecentDecisionsResponseSchema.parse((await callApi(stack.url, "/api/admin/recent-decisions?period=week", admin.tokens.access_token)).body);
    expect(week.decisions.map((d) => d.id)).toContain(seeded.anon3!.id);
    expect(week.decisions.map((d) => d.id)).not.toContain(seeded.weekOut!.id);
  });

  it("lists at most 100 decisions", async () => {
    for (let i = 0; i < 101; i += 1) await stack.store.decisions.insertOnce(decision(null, 5 * MINUTE + i, { user_ip: "192.0.2.9" }));
    const body = RecentDecisionsResponseSchema.parse((await callApi(stack.url, "/api/admin/recent-decisions?period=day", admin.tokens.access_token)).body);
    expect(body.decisions).toHaveLength(100);
    const times = body.decisions.map((d) => Date.parse(d.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });
});

describe("admin system health from measured facts", () => {
  // No provider workers in the stack: the test starts and stops them.
  const stack = useStackWithMail(emulator, { ADMIN_EMAILS: ADMIN_EMAIL, ROLES: "gateway,aggregator", DECISION_TIMEOUT_MS: "60000" });
  let admin: AuthResponse;
  const running: ProviderWorkers[] = [];

  beforeAll(async () => {
    admin = await stack.signIn(ADMIN_EMAIL);
  });
  afterAll(async () => {
    for (const workers of running) await workers.close();
  });

  const health = async (query = ""): Promise<SystemHealth> => {
    const answer = await callApi(stack.url, `/api/admin/system-health${query}`, admin.tokens.access_token);
    expect(answer.status, answer.text).toBe(200);
    return SystemHealthSchema.parse(answer.body);
  };
  /** The sum of the per-queue worker counts the workers check's message lists. */
  const listedWorkers = (answer: SystemHealth): number =>
    [...(answer.health_checks.workers?.message ?? "").matchAll(/: (\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
  const env = () => loadEnv(allInOneEnv, stack.vars);
  const startWorkers = async (ids: string[]) => {
    const e = env();
    const workers = await startProviderWorkers(e, providersFromEnv(ids as never, stack.vars), createLogger("test-workers", "silent"));
    running.push(workers);
    return workers;
  };
  const stopWorkers = async (workers: ProviderWorkers) => {
    running.splice(running.indexOf(workers), 1);
    await workers.close();
  };

  it("is critical while a provider has no live worker, naming its queue; healthy once every queue has one", async () => {
    const before = await health();
    expect(before.period).toBe("day");
    expect(before.period_hours).toBe(24);
    expect(before.status).toBe("critical");
    // The value is the live workers the message lists (here only the aggregate queue's).
    expect(before.health_checks.workers).toMatchObject({ status: "critical", value: listedWorkers(before) });
    expect(before.health_checks.workers?.value).toBeGreaterThan(0);
    expect(before.health_checks.workers?.message).toMatch(/^No live worker for vote-openai, vote-gemini, vote-claude \(vote-openai: 0, vote-gemini: 0, vote-claude: 0, decision-aggregate: \d+\)$/);
    expect(before.health_checks.database).toEqual({ status: "healthy", value: true, message: "Database reachable" });
    expect(before.health_checks.redis).toEqual({ status: "healthy", value: true, message: "Redis reachable" });
    expect(before.health_checks.activity).toEqual({ status: "healthy", value: 0, message: "No decisions in the last hour" });
    expect(before.health_checks.error_rate).toMatchObject({ status: "healthy", value: 0 });
    expect(before.metrics).toEqual({ decisions_in_period: 0, decisions_last_hour: 0, avg_processing_time_ms: 0 });

    const most = await startWorkers(["openai", "gemini"]);
    const claude = await startWorkers(["claude"]);
    const healthy = await health("?period=week");
    expect(healthy.period_hours).toBe(168);
    expect(healthy.status).toBe("healthy");
    // Never "0" beside "Every queue has a live worker": the value is the sum the message lists.
    expect(healthy.health_checks.workers).toMatchObject({ status: "healthy", value: listedWorkers(healthy) });
    expect(healthy.health_checks.workers?.message).toMatch(/^Every queue has a live worker \(vote-openai: [1-9]\d*, vote-gemini: [1-9]\d*, vote-claude: [1-9]\d*, decision-aggregate: [1-9]\d*\)$/);

    await stopWorkers(claude);
    const oneDown = await health();
    expect(oneDown.status).toBe("critical");
    expect(oneDown.health_checks.workers).toMatchObject({ status: "critical", value: 11 });
    expect(oneDown.health_checks.workers?.message).toMatch(/^No live worker for vote-claude \(vote-openai: 4, vote-gemini: 4, vote-claude: 0, decision-aggregate: 3\)$/);
    void most;
  });

  it("warns about a backlog: jobs waiting for the stopped provider", async () => {
    // claude has no worker now: each decision leaves one vote job waiting in vote-claude.
    const pending = Array.from({ length: 20 }, (_, i) =>
      fetch(`${stack.url}/api/ensembled-llm-categorical-decision-public`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question: `Backlog ${i}?`, categories: ["Ship", "Wait"] }),
      }).catch(() => undefined),
    );
    await expect.poll(async () => (await health()).health_checks.queue_backlog?.value, { timeout: 10_000 }).toBe(20);
    const answer = await health();
    expect(answer.health_checks.queue_backlog).toEqual({ status: "warning", value: 20, message: "20 jobs waiting in vote-claude" });
    expect(answer.health_checks.queue_age).toMatchObject({ status: "healthy" });
    expect(answer.health_checks.queue_age?.message).toMatch(/^The oldest waiting job in vote-claude has waited \d+ s$/);
    // Bring claude back: the backlog drains and the decisions finish.
    await startWorkers(["claude"]);
    await Promise.all(pending);
    const drained = await health();
    expect(drained.health_checks.queue_backlog).toEqual({ status: "healthy", value: 0, message: "No job waiting" });
    expect(drained.health_checks.workers?.status).toBe("healthy");
    await expect.poll(async () => (await health()).health_checks.activity?.value, { timeout: 10_000 }).toBe(20);
  });

  it("warns from a 10% error rate and is critical from 50%", async () => {
    // The 20 decisions above succeeded; add 2 with a model error and 2 outside the day: 2 of 22 = 9.09%.
    const err = { error_details: { openai: "timeout" } };
    for (const ago of [HOUR * 2, HOUR * 3]) await stack.store.decisions.insertOnce(decision(null, ago, err));
    for (const ago of [DAY + MINUTE, DAY * 2]) await stack.store.decisions.insertOnce(decision(null, ago, err));
    const low = await health();
    expect(low.health_checks.error_rate).toEqual({ status: "healthy", value: 9.09, message: "2 of 22 decisions in the period had a model error (9.09%)" });
    expect(low.status).toBe("healthy");

    await stack.store.decisions.insertOnce(decision(null, HOUR * 4, err));
    // 3 of 23 = 13.04%.
    const warning = await health();
    expect(warning.health_checks.error_rate).toMatchObject({ status: "warning", value: 13.04 });
    expect(warning.status).toBe("warning");
    // In the week the two older ones count too: 5 of 25 = 20%.
    expect((await health("?period=week")).health_checks.error_rate).toMatchObject({ status: "warning", value: 20 });

    for (let i = 0; i < 20; i += 1) await stack.store.decisions.insertOnce(decision(null, HOUR * 5, err));
    // 23 of 43 = 53.49%.
    const critical = await health();
    expect(critical.health_checks.error_rate).toMatchObject({ status: "critical", value: 53.49 });
    expect(critical.status).toBe("critical");
    expect(critical.metrics.decisions_in_period).toBe(43);
  });
});
