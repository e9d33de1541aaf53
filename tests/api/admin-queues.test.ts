import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import jwt from "jsonwebtoken";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN_MESSAGES, AGGREGATE_QUEUE, AUTH_MESSAGES, QueuesSessionResponseSchema, type AuthResponse } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { testEnv } from "@sd/testing/env";
import { callApi } from "@sd/testing/history";
import { queueSession } from "@sd/testing/queue-session";
import { startStack } from "@sd/testing/stack";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

const SESSION = "/api/admin/queues-session";
const BOARD = "/admin/queues";
const JWT_SECRET = "admin-queues-test-secret-0123456789abcdefgh";
const ADMIN = `queues-admin-${randomUUID()}@example.com`;

const emulator = useEmulator();
const stack = useStackWithMail(emulator, { ADMIN_EMAILS: ADMIN, JWT_SECRET });
let admin: AuthResponse;
let member: AuthResponse;

beforeAll(async () => {
  admin = await stack.signIn(ADMIN);
  member = await stack.signIn(`queues-member-${randomUUID()}@example.com`);
});

/** A board request as the browser sends it: with the session cookie, if any. */
const board = (path: string, cookie: string | null) => fetch(`${stack.url}${BOARD}${path}`, { headers: cookie ? { cookie } : {} });

const adminSession = (user: AuthResponse = admin) => queueSession(stack.url, user.tokens.access_token);

describe("POST /api/admin/queues-session", () => {
  it("refuses no token (401) and a signed-in non-admin (403)", async () => {
    const anonymous = await callApi(stack.url, SESSION, null, { method: "POST" });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ detail: AUTH_MESSAGES.invalidCredentials });
    const nonAdmin = await callApi(stack.url, SESSION, member.tokens.access_token, { method: "POST" });
    expect(nonAdmin.status).toBe(403);
    expect(nonAdmin.body).toEqual({ detail: ADMIN_MESSAGES.forbidden });
    expect(nonAdmin.headers.get("set-cookie")).toBeNull();
  });

  it("gives an admin a short-lived HttpOnly, SameSite=Strict cookie for /admin/queues only", async () => {
    const answer = await callApi(stack.url, SESSION, admin.tokens.access_token, { method: "POST" });
    expect(answer.status).toBe(200);
    const body = QueuesSessionResponseSchema.parse(answer.body);
    expect(body.url).toBe(`${BOARD}/`);
    expect(body.expires_in).toBeGreaterThan(0);
    expect(body.expires_in).toBeLessThanOrEqual(600);
    const attributes = answer.headers.get("set-cookie")!.split(";").map((part) => part.trim());
    expect(attributes[0]).toMatch(/^sd_queues_session=[^;]+$/);
    expect(attributes).toContain("HttpOnly");
    expect(attributes).toContain("SameSite=Strict");
    expect(attributes).toContain(`Path=${BOARD}`);
    expect(attributes).toContain(`Max-Age=${body.expires_in}`);
    // Served over plain http here: a Secure cookie would never be sent back.
    expect(attributes).not.toContain("Secure");
  });
});

describe("the queue view at /admin/queues", () => {
  it("answers 401 without a session cookie, with a forged one, and with an access token in its place", async () => {
    expect((await board("/", null)).status).toBe(401);
    expect((await board("/api/queues", null)).status).toBe(401);
    expect((await board("/", "sd_queues_session=forged")).status).toBe(401);
    // A bearer token is no queue session (another audience).
    expect((await board("/", `sd_queues_session=${admin.tokens.access_token}`)).status).toBe(401);
  });

  it("answers 403 to a session whose user is not an admin (any more)", async () => {
    const token = jwt.sign({ email: member.user.email, sid: randomUUID() }, JWT_SECRET, {
      algorithm: "HS256",
      expiresIn: 600,
      issuer: "smart-decision",
      audience: "smart-decision-queues",
      subject: member.user.id,
    });
    const answer = await board("/", `sd_queues_session=${token}`);
    expect(answer.status).toBe(403);
    expect(await answer.json()).toEqual({ detail: ADMIN_MESSAGES.forbidden });
  });

  it("shows the board to an admin's session: the page, its local assets and its API", async () => {
    const { cookie } = await adminSession();
    const page = await board("/", cookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<base href="${BOARD}/"`);
    expect(html).not.toMatch(/https?:\/\//); // no CDN: every asset comes from this server
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    const script = /src="(static\/js\/main\.[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await board(`/${script}`, cookie)).status).toBe(200);
    const api = await board("/api/queues", cookie);
    expect(api.status).toBe(200);
    const { queues } = (await api.json()) as { queues: { name: string }[] };
    // Webhook deliveries and batch runs too: an operator looks for a stuck delivery or batch here.
    expect(queues.map((q) => q.name).sort()).toEqual([AGGREGATE_QUEUE, "vote-claude", "vote-gemini", "vote-openai", "webhooks", "batches"].sort());
  });

  it("refuses the session once its sign-in session is ended (sign-out)", async () => {
    const user = await stack.signIn(ADMIN);
    const { cookie } = await adminSession(user);
    expect((await board("/api/queues", cookie)).status).toBe(200);
    expect((await callApi(stack.url, "/api/auth/logout", user.tokens.access_token, { method: "POST" })).status).toBe(200);
    expect((await board("/api/queues", cookie)).status).toBe(401);
  });
});

describe("the queue view's page template on disk", () => {
  it("is never copied to disk, so a killed process leaves no directory behind; the page still loads no web fonts", async () => {
    // In-process stacks run in this test file's process; the old copies carried its pid.
    const copies = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`sd-queue-board-${process.pid}-`));
    const another = await startStack(testEnv(emulator.url, { JWT_SECRET, ADMIN_EMAILS: ADMIN }));
    try {
      const { cookie } = await queueSession(another.url, admin.tokens.access_token);
      const page = await fetch(`${another.url}${BOARD}/`, { headers: { cookie } });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`<base href="${BOARD}/"`);
      expect(html).not.toContain("fonts.googleapis.com");
      expect(copies()).toEqual([]);
    } finally {
      await another.close();
    }
  });
});
