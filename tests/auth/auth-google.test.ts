import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { postJson } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { followAuthorization, TestOidcProvider, type TestAccount } from "@sd/testing/oidc-provider";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const PUBLIC_URL = "http://127.0.0.1:3999";
const REDIRECT_URI = `${PUBLIC_URL}/auth/callback`;
const CALLBACK = "/api/auth/google/callback";
const ada: TestAccount = {
  sub: "google-ada",
  email: "Ada@Example.com",
  email_verified: true,
  name: "Ada Lovelace",
  picture: "https://images.example.com/ada.png",
};

const emulator = useEmulator();
let op: TestOidcProvider;
let smtp: SmtpCapture;
let stack: InProcessStack;

beforeAll(async () => {
  op = await TestOidcProvider.start({ clientId: "smart-decision", clientSecret: "test-client-secret", redirectUri: REDIRECT_URI, account: ada });
  smtp = await SmtpCapture.start();
  stack = await startStack(
    testEnv(emulator.url, {
      PUBLIC_URL,
      SMTP_URL: smtp.url,
      GOOGLE_ISSUER: op.issuer,
      GOOGLE_CLIENT_ID: "smart-decision",
      GOOGLE_CLIENT_SECRET: "test-client-secret",
    }),
  );
});
afterAll(async () => {
  await stack?.close();
  await op?.close();
  await smtp?.close();
});

/** authorize, then the browser's trip through the provider: the code and state it comes back with. */
async function startGoogleSignIn(): Promise<{ state: string; code: string; authorizationUrl: URL }> {
  const response = await fetch(`${stack.url}/api/auth/google/authorize`);
  expect(response.status).toBe(200);
  const { state, authorization_url } = (await response.json()) as { state: string; authorization_url: string };
  const back = await followAuthorization(authorization_url, REDIRECT_URI);
  expect(back.searchParams.get("state")).toBe(state);
  return { state, code: back.searchParams.get("code")!, authorizationUrl: new URL(authorization_url) };
}

describe("Google sign-in against a real OpenID provider", () => {
  it("runs the code flow with state, PKCE and nonce and signs the user in", async () => {
    op.account = ada;
    const { state, code, authorizationUrl } = await startGoogleSignIn();
    expect(authorizationUrl.origin).toBe(op.issuer);
    expect(Object.fromEntries(authorizationUrl.searchParams)).toMatchObject({
      client_id: "smart-decision",
      redirect_uri: REDIRECT_URI,
      response_type: "code",
      scope: "openid email profile",
      state,
      code_challenge_method: "S256",
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.any(String),
    });
    expect(code).toBeTruthy();

    const signedIn = await postJson(`${stack.url}${CALLBACK}`, { code, state });
    expect(signedIn.status).toBe(200);
    const { user, tokens } = signedIn.body as { user: Record<string, unknown>; tokens: { access_token: string } };
    expect(user).toEqual({
      id: expect.any(String),
      email: "ada@example.com",
      name: "Ada Lovelace",
      is_verified: true,
      avatar_url: "https://images.example.com/ada.png",
    });
    expect(tokens).toMatchObject({ token_type: "bearer", expires_in: 900, refresh_token: expect.any(String) });
    const check = await fetch(`${stack.url}/api/auth/admin-check`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(await check.json()).toEqual({ is_admin: false });

    // The same answer replayed (same state, same code) is refused: the state was used up.
    expect(await postJson(`${stack.url}${CALLBACK}`, { code, state })).toEqual({ status: 400, body: { detail: AUTH_MESSAGES.invalidGoogleState } });
  });

  it("refuses a state it did not issue, and the real state still works afterwards", async () => {
    op.account = ada;
    const { state, code } = await startGoogleSignIn();
    expect(await postJson(`${stack.url}${CALLBACK}`, { code, state: "not-the-state" })).toEqual({
      status: 400,
      body: { detail: AUTH_MESSAGES.invalidGoogleState },
    });
    expect((await postJson(`${stack.url}${CALLBACK}`, { code, state })).status).toBe(200);
  });

  it("refuses a code that belongs to another sign-in's state (PKCE and nonce do not match)", async () => {
    op.account = ada;
    const first = await startGoogleSignIn();
    const second = await startGoogleSignIn();
    const crossed = await postJson(`${stack.url}${CALLBACK}`, { code: first.code, state: second.state });
    expect(crossed).toEqual({ status: 400, body: { detail: AUTH_MESSAGES.googleFailed } });
  });

  it("links Google to the account a magic link created for the same email", async () => {
    const grace: TestAccount = { sub: "google-grace", email: "grace@example.com", email_verified: true, name: "Grace Hopper", picture: "https://images.example.com/grace.png" };
    const byMail = await signInByMail(stack.url, smtp, grace.email);
    op.account = grace;
    const { state, code } = await startGoogleSignIn();
    const byGoogle = await postJson(`${stack.url}${CALLBACK}`, { code, state });
    expect(byGoogle.status).toBe(200);
    expect((byGoogle.body.user as { id: string; name: string }).id).toBe(byMail.user.id);
    expect((byGoogle.body.user as { name: string }).name).toBe("Grace Hopper");
  });

  it("refuses a Google account whose email is not verified", async () => {
    op.account = { ...ada, sub: "google-unverified", email: "mallory@example.com", email_verified: false };
    const { state, code } = await startGoogleSignIn();
    expect(await postJson(`${stack.url}${CALLBACK}`, { code, state })).toEqual({ status: 400, body: { detail: AUTH_MESSAGES.googleEmailUnverified } });
    expect(await stack.store.users.findByEmail("mallory@example.com")).toBeNull();
  });
});
