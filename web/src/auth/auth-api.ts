import {
  AdminCheckResponseSchema,
  AuthResponseSchema,
  AuthTokensSchema,
  type AdminCheckResponse,
  type AuthResponse,
  type AuthTokens,
} from "@sd/contracts";
import { authorizedGetJson, type AuthorizationSource } from "../api/authorized";
import { ApiError } from "../api/client";

/** Texts shown when an authentication call fails without the server's `detail` (specification section 8). */
export const AUTH_FALLBACKS = {
  loginRequest: "Login request failed",
  magicLinkVerification: "Magic link verification failed",
  googleUrl: "Failed to get Google OAuth URL",
  googleAuthentication: "Google authentication failed",
  tokenRefresh: "Token refresh failed",
  noRefreshToken: "No refresh token available",
} as const;

/** The text of a failed authentication call: its message (the server's detail), else the fallback. */
export const authErrorText = (error: unknown, fallback: string): string =>
  error instanceof Error && error.message ? error.message : fallback;

interface Parser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false };
}

const hasString = <K extends string>(value: unknown, ...keys: K[]): value is Record<K, string> =>
  typeof value === "object" && value !== null && keys.every((key) => typeof (value as Record<string, unknown>)[key] === "string");

const parserOf = <K extends string>(...keys: K[]): Parser<Record<K, string>> => ({
  safeParse: (value) => (hasString(value, ...keys) ? { success: true, data: value } : { success: false }),
});

/**
 * One authentication call. Errors are read from the answer's `detail` (specification section 7);
 * without one (or on a network failure, or an answer of the wrong shape) the call's fallback text.
 */
async function authCall<T>(path: string, init: RequestInit, fallback: string, parser: Parser<T>): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, fallback);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const detail = hasString(body, "detail") && body.detail.trim() !== "" ? body.detail : fallback;
    throw new ApiError(response.status, detail);
  }
  const parsed = parser.safeParse(body);
  if (!parsed.success) throw new ApiError(response.status, fallback);
  return parsed.data;
}

const postBody = (body: unknown): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

/** POST /api/auth/magic-link/request: the server's message ("Check your email..."). */
export async function requestMagicLink(email: string): Promise<string> {
  const { message } = await authCall("/api/auth/magic-link/request", postBody({ email }), AUTH_FALLBACKS.loginRequest, parserOf("message"));
  return message;
}

/** POST /api/auth/magic-link/verify: signs in with the single-use token of a magic link. */
export function verifyMagicLink(token: string): Promise<AuthResponse> {
  return authCall("/api/auth/magic-link/verify", postBody({ token }), AUTH_FALLBACKS.magicLinkVerification, AuthResponseSchema);
}

/** GET /api/auth/google/authorize: where to send the browser, and the state it will come back with. */
export function googleAuthorization(): Promise<{ state: string; authorization_url: string }> {
  return authCall("/api/auth/google/authorize", {}, AUTH_FALLBACKS.googleUrl, parserOf("state", "authorization_url"));
}

/** POST /api/auth/google/callback with the parameters Google redirected back with. */
export function googleCallback(params: { code: string; state: string; iss?: string }): Promise<AuthResponse> {
  return authCall("/api/auth/google/callback", postBody(params), AUTH_FALLBACKS.googleAuthentication, AuthResponseSchema);
}

/** POST /api/auth/refresh: new tokens (the refresh token rotates). */
export function refreshTokens(refreshToken: string): Promise<AuthTokens> {
  return authCall("/api/auth/refresh", postBody({ refresh_token: refreshToken }), AUTH_FALLBACKS.tokenRefresh, AuthTokensSchema);
}

/** POST /api/auth/logout with the bearer token: ends the session on the server (its answer is not shown). */
export async function logoutOnServer(accessToken: string): Promise<void> {
  const response = await fetch("/api/auth/logout", { method: "POST", headers: { authorization: `Bearer ${accessToken}` } });
  if (!response.ok) throw new ApiError(response.status, `HTTP ${response.status}`);
}

/** GET /api/auth/admin-check as the signed-in user. */
export async function checkAdmin(session: AuthorizationSource): Promise<AdminCheckResponse> {
  const parsed = AdminCheckResponseSchema.safeParse(await authorizedGetJson<unknown>("/api/auth/admin-check", session));
  if (!parsed.success) throw new Error("The admin check returned an invalid answer.");
  return parsed.data;
}
