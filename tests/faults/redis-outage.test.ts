import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { testEnv } from "@sd/testing/env";
import { callApi, type ApiAnswer } from "@sd/testing/history";
import { PrivateRedis } from "@sd/testing/private-redis";
import { ServiceProcess } from "@sd/testing/processes";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";

/**
 * Issue 11, defect 4: while Redis is unreachable, every request that needs it fails at once with a
 * clear 503 (not a request that hangs for the outage), /ready says so within a second, and when
 * Redis returns on its port everything works again without restarting the product. The product
 * runs as its own process on a private redis-server that the test stops (connections refused) and
 * freezes with SIGSTOP (a hung Redis: connections open, nothing answered).
 */

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const COMMAND_TIMEOUT_MS = 1000;
/** "Within about a second", with room for a loaded 2-core machine. */
const REFUSED_BOUND_MS = 1500;
/** A hung Redis costs each command REDIS_COMMAND_TIMEOUT_MS; a request may make a few before it gives up. */
const HUNG_BOUND_MS = 3500;
const UNAVAILABLE = { detail: MESSAGES.serviceUnavailable };

const emulator = useEmulator();
let redis: PrivateRedis;
let smtp: SmtpCapture;
let service: ServiceProcess;
let url: string;
let accessToken: string;

beforeAll(async () => {
  smtp = await SmtpCapture.start();
  redis = await PrivateRedis.start();
  // As `npm start` runs it: the workers in a process it forks, which must come back by itself too.
  service = ServiceProcess.start(
    "all-in-one",
    testEnv(emulator.url, { REDIS_URL: redis.url, REDIS_COMMAND_TIMEOUT_MS: String(COMMAND_TIMEOUT_MS), SMTP_URL: smtp.url, WORKER_PROCESSES: "1" }),
  );
  url = await service.gatewayUrl();
  accessToken = (await signInByMail(url, smtp, `outage-${randomUUID()}@example.com`)).tokens.access_token;
}, 60_000);
afterAll(async () => {
  await service?.stop("SIGKILL");
  await redis?.close();
  await smtp?.close();
});

/** The answer and how long it took. */
async function timed(call: () => Promise<ApiAnswer>): Promise<ApiAnswer & { ms: number }> {
  const started = performance.now();
  const answer = await call();
  return { ...answer, ms: performance.now() - started };
}

/** The requests a visitor makes that need Redis (queue, rate limits, sign-in tokens), by name. */
const needsRedis: Record<string, () => Promise<ApiAnswer>> = {
  "a decision": () => callApi(url, PUBLIC, null, { body: { question: `Ship during the outage ${randomUUID()}?`, categories: ["Yes", "No"] } }),
  "joining the waitlist": () => callApi(url, "/api/email-request", null, { body: { email: `waitlist-${randomUUID()}@example.com` } }),
  "a sign-in link": () => callApi(url, "/api/auth/magic-link/request", null, { body: { email: `link-${randomUUID()}@example.com` } }),
};
const ready = () => timed(() => callApi(url, "/ready", null));

/** Every request that needs Redis, at once: each answer with its time. */
async function askEverything(): Promise<Record<string, ApiAnswer & { ms: number }>> {
  const names = Object.keys(needsRedis);
  const answers = await Promise.all(names.map((name) => timed(needsRedis[name]!)));
  return Object.fromEntries(names.map((name, i) => [name, answers[i]!]));
}

/** Redis is back: /ready turns 200 once the product reconnected (no event reaches the outside, so a bounded poll), then everything works. */
async function expectRecovered(): Promise<void> {
  await expect.poll(async () => (await ready()).status, { timeout: 10_000, interval: 100 }).toBe(200);
  const answers = await askEverything();
  for (const [name, answer] of Object.entries(answers)) expect(answer.status, `${name}: ${answer.text}`).toBe(200);
  expect(answers["a decision"]!.body).toMatchObject({ total_votes: 3 });
  // The same process: nothing was restarted.
  expect(service.child.exitCode).toBeNull();
}

/** Every request that needs Redis answers 503 'temporarily unavailable' within `boundMs`, and /ready 503 within a second. */
async function expectUnavailable(boundMs: number) {
  const answers = await askEverything();
  for (const [name, answer] of Object.entries(answers)) {
    expect([name, answer.status, answer.body]).toEqual([name, 503, UNAVAILABLE]);
    expect(answer.ms, name).toBeLessThan(boundMs);
  }
  const probe = await ready();
  expect(probe.status).toBe(503);
  expect(probe.ms).toBeLessThan(REFUSED_BOUND_MS);
}

describe("Redis unreachable", () => {
  it("answers at once before the outage (the baseline the outage is measured against)", async () => {
    const answers = await askEverything();
    for (const [name, answer] of Object.entries(answers)) expect(answer.status, `${name}: ${answer.text}`).toBe(200);
    expect((await ready()).status).toBe(200);
  });

  it("stopped: every request that needs it answers 503 'temporarily unavailable' within a second, and /ready 503 within a second", async () => {
    await redis.stop("SIGTERM");
    await expectUnavailable(REFUSED_BOUND_MS);
  });

  it("stopped: a signed-in request answers 503 too (whether its session was signed out is kept in Redis, and no token is trusted unchecked); what needs no Redis still answers", async () => {
    const history = await timed(() => callApi(url, "/api/decision-history", accessToken));
    expect([history.status, history.body]).toEqual([503, UNAVAILABLE]);
    expect(history.ms).toBeLessThan(REFUSED_BOUND_MS);
    for (const path of ["/health", "/api/providers"]) {
      const answer = await timed(() => callApi(url, path, null));
      expect(answer.status, path).toBe(200);
      expect(answer.ms, path).toBeLessThan(REFUSED_BOUND_MS);
    }
  });

  it("back on its port: decisions, the waitlist, sign-in links and /ready work again without a restart", async () => {
    await redis.restart();
    await expectRecovered();
  });

  it("hung (SIGSTOP): every request that needs it answers 503 within the command timeout, and /ready 503 within a second", async () => {
    redis.pause();
    try {
      await expectUnavailable(HUNG_BOUND_MS);
    } finally {
      redis.resume();
    }
  });

  it("continued (SIGCONT): everything works again without a restart", async () => {
    await expectRecovered();
  });
});
