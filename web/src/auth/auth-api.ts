import type { AdminCheckResponse, AuthResponse, AuthTokens, GoogleAuthorization } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { bearer, type AuthorizationSource } from "../api/authorized";
import { ApiError, apiRequest } from "../api/client";
import { callEndpoint, endpointRequest, type EndpointRequest, type EndpointResult } from "../api/endpoint";

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

/** The sign-in calls: public endpoints, answered without a session. */
type PublicAuthEndpoint = (typeof ENDPOINTS)["requestMagicLink" | "verifyMagicLink" | "authorizeGoogle" | "completeGoogleSignIn" | "refreshTokens"];

/**
 * One authentication call through the API client. Its errors are read from the answer's `detail`;
 * without one (an answer with only a `message` or none, a body that is
 * not JSON, a 2xx answer of the wrong shape, or no answer at all) the call's fallback text
 * is used, keeping the status.
 */
async function authCall<E extends PublicAuthEndpoint>(endpoint: E, request: EndpointRequest<E>, fallback: string): Promise<EndpointResult<E>> {
  try {
    return await apiRequest(...endpointRequest(endpoint, request));
  } catch (error) {
    if (error instanceof ApiError && error.source === "detail") throw error;
    throw new ApiError(error instanceof ApiError ? error.status : 0, fallback);
  }
}

/** POST /api/auth/magic-link/request: the server's message ("Check your email..."). */
export async function requestMagicLink(email: string): Promise<string> {
  const { message } = await authCall(ENDPOINTS.requestMagicLink, { body: { email } }, AUTH_FALLBACKS.loginRequest);
  return message;
}

/** POST /api/auth/magic-link/verify: signs in with the single-use token of a magic link. */
export function verifyMagicLink(token: string): Promise<AuthResponse> {
  return authCall(ENDPOINTS.verifyMagicLink, { body: { token } }, AUTH_FALLBACKS.magicLinkVerification);
}

/** GET /api/auth/google/authorize: where to send the browser, and the state it will come back with. */
export function googleAuthorization(): Promise<GoogleAuthorization> {
  return authCall(ENDPOINTS.authorizeGoogle, {}, AUTH_FALLBACKS.googleUrl);
}

/** POST /api/auth/google/callback with the parameters Google redirected back with. */
export function googleCallback(params: { code: string; state: string; iss?: string }): Promise<AuthResponse> {
  return authCall(ENDPOINTS.completeGoogleSignIn, { body: params }, AUTH_FALLBACKS.googleAuthentication);
}

/** POST /api/auth/refresh: new tokens (the refresh token rotates). */
export function refreshTokens(refreshToken: string): Promise<AuthTokens> {
  return authCall(ENDPOINTS.refreshTokens, { body: { refresh_token: refreshToken } }, AUTH_FALLBACKS.tokenRefresh);
}

/**
 * POST /api/auth/logout with the bearer token: ends the session on the server (its answer is not
 * shown). It sends the token it is given, without the session's refresh-and-retry: the session is ending.
 */
export async function logoutOnServer(accessToken: string): Promise<void> {
  await apiRequest(...endpointRequest(ENDPOINTS.logout, { init: bearer(accessToken) }));
}

/** GET /api/auth/admin-check as the signed-in user. */
export function checkAdmin(session: AuthorizationSource): Promise<AdminCheckResponse> {
  return callEndpoint(ENDPOINTS.adminCheck, {}, session);
}
