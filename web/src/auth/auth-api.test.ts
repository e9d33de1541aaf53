import { describe, expect, it } from "vitest";
import type { AuthorizationSource } from "../api/authorized";
import { ApiError, InvalidResponseError } from "../api/client";
import {
  AUTH_FALLBACKS,
  checkAdmin,
  googleAuthorization,
  googleCallback,
  logoutOnServer,
  refreshTokens,
  requestMagicLink,
  verifyMagicLink,
} from "./auth-api";
import { bodyOf, jsonResponse, serveFetch, tokensExpiringIn, USER } from "./test-support";


const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe("authentication calls", () => {
  it("magic-link request: POSTs {email} and returns the server's message", async () => {
    const calls = serveFetch(jsonResponse(200, { message: "Check your email for a sign-in link." }));
    expect(await requestMagicLink("ada@example.com")).toBe("Check your email for a sign-in link.");
    expect(calls[0]?.url).toBe("/api/auth/magic-link/request");
    expect(calls[0]?.init.method).toBe("POST");
    expect(new Headers(calls[0]?.init.headers).get("content-type")).toBe("application/json");
    expect(bodyOf(calls[0]!.init)).toEqual({ email: "ada@example.com" });
  });

  it("magic-link verify: POSTs {token} and returns {user, tokens}", async () => {
    const answer = { user: USER, tokens: tokensExpiringIn(900) };
    const calls = serveFetch(jsonResponse(200, answer));
    expect(await verifyMagicLink("tok")).toEqual(answer);
    expect(calls[0]?.url).toBe("/api/auth/magic-link/verify");
    expect(bodyOf(calls[0]!.init)).toEqual({ token: "tok" });
  });

  it("Google authorize: GETs the state and the authorization URL", async () => {
    const calls = serveFetch(jsonResponse(200, { state: "s1", authorization_url: "https://accounts.example.com/auth?x=1" }));
    expect(await googleAuthorization()).toEqual({ state: "s1", authorization_url: "https://accounts.example.com/auth?x=1" });
    expect(calls[0]?.url).toBe("/api/auth/google/authorize");
    expect(calls[0]?.init.method).toBe("GET");
  });

  it("Google callback: POSTs {code, state}", async () => {
    const calls = serveFetch(jsonResponse(200, { user: USER, tokens: tokensExpiringIn(900) }));
    await googleCallback({ code: "c", state: "s" });
    expect(calls[0]?.url).toBe("/api/auth/google/callback");
    expect(bodyOf(calls[0]!.init)).toEqual({ code: "c", state: "s" });
  });

  it("refresh: POSTs {refresh_token} and returns the new tokens", async () => {
    const tokens = tokensExpiringIn(900, "refresh-2");
    const calls = serveFetch(jsonResponse(200, tokens));
    expect(await refreshTokens("refresh-1")).toEqual(tokens);
    expect(calls[0]?.url).toBe("/api/auth/refresh");
    expect(bodyOf(calls[0]!.init)).toEqual({ refresh_token: "refresh-1" });
  });

  it("logout: POSTs with the bearer header", async () => {
    const calls = serveFetch(jsonResponse(200, { message: "Signed out." }));
    await logoutOnServer("access-1");
    expect(calls[0]?.url).toBe("/api/auth/logout");
    expect(calls[0]?.init.method).toBe("POST");
    expect(new Headers(calls[0]?.init.headers).get("authorization")).toBe("Bearer access-1");
  });

  it("logout: a failed answer throws (the session clears regardless, in the controller)", async () => {
    serveFetch(jsonResponse(401, { detail: "Could not validate credentials" }));
    expect(await rejection(logoutOnServer("access-1"))).toBeInstanceOf(ApiError);
  });

  it("admin check: GETs with the bearer token and reads {is_admin}; an answer of another shape is an invalid response", async () => {
    const session: AuthorizationSource = { accessToken: () => "access-1", refresh: async () => ({ ok: false, error: "Token refresh failed" }) };
    const calls = serveFetch(jsonResponse(200, { is_admin: true }), jsonResponse(200, { is_admin: "yes" }));
    expect(await checkAdmin(session)).toEqual({ is_admin: true });
    expect(calls[0]?.url).toBe("/api/auth/admin-check");
    expect(new Headers(calls[0]?.init.headers).get("authorization")).toBe("Bearer access-1");
    expect(await rejection(checkAdmin(session))).toBeInstanceOf(InvalidResponseError);
  });
});

describe("authentication errors: the server's detail, else the fallback", () => {
  const cases = [
    ["magic-link request", () => requestMagicLink("ada@example.com"), AUTH_FALLBACKS.loginRequest, "Login request failed"],
    ["magic-link verify", () => verifyMagicLink("tok"), AUTH_FALLBACKS.magicLinkVerification, "Magic link verification failed"],
    ["Google authorize", () => googleAuthorization(), AUTH_FALLBACKS.googleUrl, "Failed to get Google OAuth URL"],
    ["Google callback", () => googleCallback({ code: "c", state: "s" }), AUTH_FALLBACKS.googleAuthentication, "Google authentication failed"],
    ["refresh", () => refreshTokens("r"), AUTH_FALLBACKS.tokenRefresh, "Token refresh failed"],
  ] as const;

  it.each(cases)("%s: reads detail", async (_name, call) => {
    serveFetch(jsonResponse(400, { detail: "Something specific.", message: "not this" }));
    const error = await rejection(call());
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, message: "Something specific." });
  });

  it.each(cases)("%s: falls back without detail (only a message, a blank one), on a body that is not JSON, and on a network failure", async (_name, call, fallback, text) => {
    expect(fallback).toBe(text);
    serveFetch(
      jsonResponse(500, { message: "only a message" }),
      jsonResponse(400, { detail: " " }),
      new Response("<html>", { status: 502 }),
      new TypeError("Failed to fetch"),
    );
    const errors = [];
    for (let i = 0; i < 4; i++) errors.push(await rejection(call()));
    for (const error of errors) expect(error).toBeInstanceOf(ApiError);
    expect(errors.map((e) => [(e as ApiError).status, (e as ApiError).message])).toEqual([
      [500, text],
      [400, text],
      [502, text],
      [0, text],
    ]);
  });

  it.each(cases)("%s: a 2xx answer of the wrong shape, or not JSON, is a failure too", async (_name, call, fallback) => {
    serveFetch(jsonResponse(200, { unexpected: true }), new Response("<html>", { status: 200 }));
    expect(await rejection(call())).toMatchObject({ message: fallback });
    expect(await rejection(call())).toMatchObject({ message: fallback });
  });

  it("keeps the last fallback texts of the catalogue", () => {
    expect(AUTH_FALLBACKS.noRefreshToken).toBe("No refresh token available");
  });
});
