import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES, type AuthResponse } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { postJson } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const JWT_SECRET = "test-secret-0123456789abcdefghijklmnopqrstuvwxyz";
const ISSUER = "smart-decision";
const AUDIENCE = "smart-decision-api";
const DECIDE = "/api/ensembled-llm-categorical-decision";
const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const UNAUTHORIZED = { status: 401, body: { detail: AUTH_MESSAGES.invalidCredentials } };

const emulator = useEmulator();
let smtp: SmtpCapture;
let stack: InProcessStack;

beforeAll(async () => {
  smtp = await SmtpCapture.start();
  stack = await startStack(testEnv(emulator.url, { SMTP_URL: smtp.url, JWT_SECRET, ADMIN_EMAILS: " Boss@Example.com , chief@example.com" }));
});
afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

let n = 0;
const freshEmail = () => `user${++n}-${Date.now()}@example.com`;
const signIn = (email = freshEmail()) => signInByMail(stack.url, smtp, email);

async function call(path: string, token: string | null, init: { method?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const response = await fetch(`${stack.url}${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
const adminCheck = (token: string | null) => call("/api/auth/admin-check", token);
const refresh = (refresh_token: string) => postJson(`${stack.url}/api/auth/refresh`, { refresh_token });

/** A token with the same claims as a real one, signed as the test says. */
function forge(real: string, overrides: { payload?: Record<string, unknown>; secret?: string; audience?: string; issuer?: string } = {}) {
  const claims = jwt.decode(real) as { sub: string; email: string; sid: string };
  return jwt.sign({ email: claims.email, sid: claims.sid, ...overrides.payload }, overrides.secret ?? JWT_SECRET, {
    algorithm: "HS256",
    subject: claims.sub,
    issuer: overrides.issuer ?? ISSUER,
    audience: overrides.audience ?? AUDIENCE,
    ...(overrides.payload?.exp === undefined ? { expiresIn: 300 } : {}),
  });
}

describe("access tokens", () => {
  let session: AuthResponse;
  beforeAll(async () => {
    session = await signIn();
  });

  it("are HS256 JWTs for the user with issuer, audience, expiry and the session", () => {
    const decoded = jwt.decode(session.tokens.access_token, { complete: true })!;
    expect(decoded.header).toMatchObject({ alg: "HS256", typ: "JWT" });
    const payload = decoded.payload as jwt.JwtPayload;
    expect(payload).toMatchObject({ sub: session.user.id, email: session.user.email, iss: ISSUER, aud: AUDIENCE, sid: expect.any(String) });
    expect(payload.exp! - payload.iat!).toBe(900);
  });

  it("accept a correctly signed token (forged and misused tokens are refused in security.test.ts)", async () => {
    expect(await adminCheck(session.tokens.access_token)).toEqual({ status: 200, body: { is_admin: false } });
    expect(await adminCheck(forge(session.tokens.access_token))).toEqual({ status: 200, body: { is_admin: false } });
  });

  it("refuse a missing, malformed or non-bearer credential", async () => {
    expect(await adminCheck(null)).toEqual(UNAUTHORIZED);
    expect(await adminCheck("nonsense")).toEqual(UNAUTHORIZED);
    const basic = await fetch(`${stack.url}/api/auth/admin-check`, { headers: { authorization: "Basic dXNlcjpwYXNz" } });
    expect(basic.status).toBe(401);
    expect(basic.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });
});

describe("refresh tokens", () => {
  it("rotate: each refresh gives new tokens and uses up the old refresh token", async () => {
    const first = await signIn();
    const second = await refresh(first.tokens.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 900, token_type: "bearer" });
    expect(second.body.refresh_token).not.toBe(first.tokens.refresh_token);
    expect((await adminCheck(second.body.access_token as string)).status).toBe(200);
    const third = await refresh(second.body.refresh_token as string);
    expect(third.status).toBe(200);
    expect((jwt.decode(third.body.access_token as string) as { sub: string }).sub).toBe(first.user.id);
  });

  it("reusing a rotated refresh token revokes the whole session", async () => {
    const first = await signIn();
    const second = await refresh(first.tokens.refresh_token);
    expect(second.status).toBe(200);
    // The stolen, already used token is presented again.
    expect(await refresh(first.tokens.refresh_token)).toEqual({ status: 401, body: { detail: AUTH_MESSAGES.invalidRefreshToken } });
    // At once, the session's access tokens stop working and the newer refresh token is revoked too.
    expect(await adminCheck(second.body.access_token as string)).toEqual(UNAUTHORIZED);
    expect(await adminCheck(first.tokens.access_token)).toEqual(UNAUTHORIZED);
    const newer = await stack.store.refreshTokens.findByHash(createHash("sha256").update(second.body.refresh_token as string).digest("hex"));
    expect(newer?.revoked_at).toBeInstanceOf(Date);
    expect(await refresh(second.body.refresh_token as string)).toEqual({ status: 401, body: { detail: AUTH_MESSAGES.invalidRefreshToken } });
    // Another session of the same user is not affected.
    const other = await signIn(first.user.email);
    expect((await adminCheck(other.tokens.access_token)).status).toBe(200);
    expect((await refresh(other.tokens.refresh_token)).status).toBe(200);
  });

  it("refuses an unknown refresh token", async () => {
    expect(await refresh("x".repeat(43))).toEqual({ status: 401, body: { detail: AUTH_MESSAGES.invalidRefreshToken } });
  });

  it("are stored only as SHA-256 hashes", async () => {
    const { tokens } = await signIn();
    const hash = createHash("sha256").update(tokens.refresh_token).digest("hex");
    expect(await stack.store.refreshTokens.findByHash(hash)).toMatchObject({ rotated_at: null, revoked_at: null });
    expect(await stack.store.refreshTokens.findByHash(tokens.refresh_token)).toBeNull();
  });
});

describe("logout", () => {
  it("revokes the session: its refresh token and access token stop working", async () => {
    const session = await signIn();
    expect(await call("/api/auth/logout", session.tokens.access_token, { method: "POST" })).toEqual({ status: 200, body: { message: AUTH_MESSAGES.signedOut } });
    expect(await refresh(session.tokens.refresh_token)).toEqual({ status: 401, body: { detail: AUTH_MESSAGES.invalidRefreshToken } });
    expect(await adminCheck(session.tokens.access_token)).toEqual(UNAUTHORIZED);
  });

  it("needs a valid bearer token", async () => {
    expect(await call("/api/auth/logout", null, { method: "POST" })).toEqual(UNAUTHORIZED);
  });
});

describe("admin check", () => {
  it("is true only for ADMIN_EMAILS, whatever the case", async () => {
    const boss = await signIn("boss@example.com");
    const chief = await signIn("CHIEF@example.com");
    const staff = await signIn("staff@example.com");
    expect(await adminCheck(boss.tokens.access_token)).toEqual({ status: 200, body: { is_admin: true } });
    expect(await adminCheck(chief.tokens.access_token)).toEqual({ status: 200, body: { is_admin: true } });
    expect(await adminCheck(staff.tokens.access_token)).toEqual({ status: 200, body: { is_admin: false } });
  });
});

describe("the authenticated decision endpoint", () => {
  const question = { question: "Which logo?", categories: ["Round", "Square"] };
  const png = `data:image/png;base64,${Buffer.alloc(300, 7).toString("base64")}`;
  const jpeg = `data:image/jpeg;base64,${Buffer.alloc(1000, 9).toString("base64")}`;

  it("answers 401 Could not validate credentials without a token or with a bad one", async () => {
    expect(await call(DECIDE, null, { body: question })).toEqual(UNAUTHORIZED);
    expect(await call(DECIDE, "not.a.token", { body: question })).toEqual(UNAUTHORIZED);
    expect(emulator.calls()).toHaveLength(0);
  });

  it("stores the decision as the user's, with the images as their image assets", async () => {
    const owner = await signIn();
    const decided = await call(DECIDE, owner.tokens.access_token, { body: { ...question, images: [png, jpeg] } });
    expect(decided.status).toBe(200);
    const decisionId = decided.body.decision_id as string;
    expect(decided.body).toMatchObject({ question: "Which logo?", total_votes: 3 });

    const stored = await stack.store.decisions.findById(decisionId);
    expect(stored).toMatchObject({ is_authenticated: true, user_id: owner.user.id, user_email: owner.user.email });

    const listed = await call(`/api/image-assets/decision/${decisionId}`, owner.tokens.access_token);
    expect(listed.status).toBe(200);
    expect(listed.body).toMatchObject({ success: true, total: 2 });
    const assets = listed.body.imageAssets as Record<string, unknown>[];
    expect(assets).toEqual([
      expect.objectContaining({ label: "image1", image_type: "image/png", file_size: 300, image_data: png, user_id: owner.user.id, decisionHistory_id: decisionId }),
      expect.objectContaining({ label: "image2", image_type: "image/jpeg", file_size: 1000, image_data: jpeg, user_id: owner.user.id, decisionHistory_id: decisionId }),
    ]);
    expect(assets[0]).toEqual({
      id: expect.any(String),
      user_id: owner.user.id,
      decisionHistory_id: decisionId,
      label: "image1",
      image_data: png,
      image_type: "image/png",
      file_size: 300,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    // Only the owner sees them: another user and an anonymous caller get none; a bad token is a 401.
    const stranger = await signIn();
    expect(await call(`/api/image-assets/decision/${decisionId}`, stranger.tokens.access_token)).toEqual({
      status: 200,
      body: { success: true, message: expect.any(String), imageAssets: [], total: 0 },
    });
    expect((await call(`/api/image-assets/decision/${decisionId}?user_id=${owner.user.id}`, null)).body).toMatchObject({ imageAssets: [], total: 0 });
    expect((await call(`/api/image-assets/decision/${decisionId}`, "bad-token")).status).toBe(401);
  });

  it("stores no image assets for the public endpoint", async () => {
    const before = await stack.store.imageAssets.count();
    const decided = await postJson(`${stack.url}${PUBLIC}`, { ...question, images: [png] });
    expect(decided.status).toBe(200);
    const stored = await stack.store.decisions.findById(decided.body.decision_id as string);
    expect(stored).toMatchObject({ is_authenticated: false, user_id: null, user_email: null });
    expect(await stack.store.imageAssets.count()).toBe(before);
  });
});

describe("Google sign-in without configuration", () => {
  it("answers 503 with a detail", async () => {
    const response = await fetch(`${stack.url}/api/auth/google/authorize`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ detail: AUTH_MESSAGES.googleNotConfigured });
  });
});

describe("the signing key", () => {
  it("is generated under DATA_DIR (mode 0600) when JWT_SECRET is unset, so a restart keeps sessions", async () => {
    const vars = testEnv(emulator.url, { SMTP_URL: smtp.url });
    const first = await startStack(vars);
    let session: AuthResponse;
    try {
      session = await signInByMail(first.url, smtp, freshEmail());
    } finally {
      await first.close();
    }
    expect((await stat(join(vars.DATA_DIR!, "secrets.json"))).mode & 0o777).toBe(0o600);
    const second = await startStack(vars);
    try {
      const check = await fetch(`${second.url}/api/auth/admin-check`, { headers: { authorization: `Bearer ${session.tokens.access_token}` } });
      expect(check.status).toBe(200);
      expect((await postJson(`${second.url}/api/auth/refresh`, { refresh_token: session.tokens.refresh_token })).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it("is required in production: the gateway refuses to start without JWT_SECRET", async () => {
    await expect(startStack(testEnv(emulator.url, { NODE_ENV: "production" }))).rejects.toThrow(/JWT_SECRET/);
  });
});
