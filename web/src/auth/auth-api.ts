import {
  AdminCheckResponseSchema,
  AuthMessageResponseSchema,
  AuthResponseSchema,
  AuthTokensSchema,
  GoogleAuthorizationSchema,
  type AdminCheckResponse,
  type AuthResponse,
  type AuthTokens,
  type GoogleAuthorization,
} from "@sd/contracts";
import type { z } from "zod";
import { authorizedRequest, bearer, type AuthorizationSource } from "../api/authorized";
import { ApiError, apiRequest, type ApiRequest } from "../api/client";

/** Texts shown when an authentication call fails without the server's `detail`. */
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

/**
 * One authentication call through the API client. Its errors are read from the answer's `detail`;
 * without one (an answer with only a `message` or none, a body that is
 * not JSON, a 2xx answer of the wrong shape, or no answer at all) the call's fallback text
 * is used, keeping the status.
 */
async function authCall<S extends z.ZodType>(path: string, request: ApiRequest<S>, fallback: string): Promise<z.infer<S>> {
  try {
    return await apiRequest(path, request);
  } catch (error) {
    if (error instanceof ApiError && error.source === "detail") throw error;
    throw new ApiError(error instanceof ApiError ? error.status : 0, fallback);
  }
}

/** POST /api/auth/magic-link/request: the server's message ("Check your email..."). */
export async function requestMagicLink(email: string): Promise<string> {
  const { message } = await authCall("/api/auth/magic-link/request", { method: "POST", body: { email }, schema: AuthMessageResponseSchema }, AUTH_FALLBACKS.loginRequest);
  return message;
}

/** POST /api/auth/magic-link/verify: signs in with the single-use token of a magic link. */
export function verifyMagicLink(token: string): Promise<AuthResponse> {
  return authCall("/api/auth/magic-link/verify", { method: "POST", body: { token }, schema: AuthResponseSchema }, AUTH_FALLBACKS.magicLinkVerification);
}

/** GET /api/auth/google/authorize: where to send the browser, and the state it will come back with. */
export function googleAuthorization(): Promise<GoogleAuthorization> {
  return authCall("/api/auth/google/authorize", { schema: GoogleAuthorizationSchema }, AUTH_FALLBACKS.googleUrl);
}

/** POST /api/auth/google/callback with the parameters Google redirected back with. */
export function googleCallback(params: { code: string; state: string; iss?: string }): Promise<AuthResponse> {
  return authCall("/api/auth/google/callback", { method: "POST", body: params, schema: AuthResponseSchema }, AUTH_FALLBACKS.googleAuthentication);
}

/** POST /api/auth/refresh: new tokens (the refresh token rotates). */
export function refreshTokens(refreshToken: string): Promise<AuthTokens> {
  return authCall("/api/auth/refresh", { method: "POST", body: { refresh_token: refreshToken }, schema: AuthTokensSchema }, AUTH_FALLBACKS.tokenRefresh);
}

/** POST /api/auth/logout with the bearer token: ends the session on the server (its answer is not shown). */
export async function logoutOnServer(accessToken: string): Promise<void> {
  await apiRequest("/api/auth/logout", { method: "POST", schema: AuthMessageResponseSchema, init: bearer(accessToken) });
}

/** GET /api/auth/admin-check as the signed-in user. */
export function checkAdmin(session: AuthorizationSource): Promise<AdminCheckResponse> {
  return authorizedRequest("/api/auth/admin-check", { schema: AdminCheckResponseSchema }, session);
}
