import {
  AdminCheckResponseSchema,
  AUTH_MESSAGES,
  AuthMessageResponseSchema,
  AuthResponseSchema,
  AuthTokensSchema,
  GoogleAuthorizationSchema,
  GoogleCallbackSchema,
  MagicLinkRequestSchema,
  MagicLinkVerifySchema,
  RefreshRequestSchema,
} from "../index";
import {
  EXAMPLE_EMAIL,
  exampleAuthResponse,
  exampleErrors,
} from "./examples";
import { json, one, error, tooManyRequests, unauthorized } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- accounts

export const authEndpoints = [
  defineEndpoint({
    method: "post",
    path: "/api/auth/magic-link/request",
    tag: "auth",
    operationId: "requestMagicLink",
    summary: "Email a sign-in link",
    description: "The same answer whether or not the address has an account.",
    access: "public",
    body: json(MagicLinkRequestSchema, one("An address", { email: EXAMPLE_EMAIL })),
    responses: {
      200: { description: "Sent.", body: json(AuthMessageResponseSchema, one("Sent", { message: AUTH_MESSAGES.magicLinkSent })) },
      400: error("The email is missing or invalid.", one("No email", { detail: AUTH_MESSAGES.emailRequired, title: "Email required" })),
      429: tooManyRequests,
      503: error("The mail could not be sent.", one("Mail failed", exampleErrors.mailFailed)),
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/auth/magic-link/verify",
    tag: "auth",
    operationId: "verifyMagicLink",
    summary: "Sign in with a magic-link token",
    access: "public",
    body: json(MagicLinkVerifySchema, one("The token from the link", { token: "mlt_9fK2pQ7xV1bN4sR8tY3wZ6aC0dE5gH" })),
    responses: {
      200: { description: "Signed in.", body: json(AuthResponseSchema, one("Signed in", exampleAuthResponse)) },
      400: error("The link is invalid, used or expired.", one("Bad link", exampleErrors.invalidMagicLink)),
      429: tooManyRequests,
    },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/auth/google/authorize",
    tag: "auth",
    operationId: "authorizeGoogle",
    summary: "Start Google sign-in",
    description: "Send the browser to `authorization_url`; Google comes back to /auth/callback with `code` and `state`.",
    access: "public",
    responses: {
      200: {
        description: "Where to send the browser.",
        body: json(GoogleAuthorizationSchema, one("Authorization", { state: "st_4kP9qX2vB7nM1sT8", authorization_url: "https://accounts.google.com/o/oauth2/v2/auth?client_id=...&state=st_4kP9qX2vB7nM1sT8" })),
      },
      429: tooManyRequests,
      503: error("Google sign-in is not configured.", one("Not configured", exampleErrors.googleNotConfigured)),
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/auth/google/callback",
    tag: "auth",
    operationId: "completeGoogleSignIn",
    summary: "Finish Google sign-in",
    access: "public",
    body: json(GoogleCallbackSchema, one("The callback's parameters", { code: "4/0AX4XfWh-example", state: "st_4kP9qX2vB7nM1sT8" })),
    responses: {
      200: { description: "Signed in.", body: json(AuthResponseSchema, one("Signed in", { ...exampleAuthResponse, user: { ...exampleAuthResponse.user, name: "Ada Lovelace" } })) },
      400: error("The attempt is invalid or expired.", one("Bad state", { detail: AUTH_MESSAGES.invalidGoogleState })),
      429: tooManyRequests,
      503: error("Google sign-in is not configured.", one("Not configured", exampleErrors.googleNotConfigured)),
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/auth/refresh",
    tag: "auth",
    operationId: "refreshTokens",
    summary: "Exchange a refresh token for new tokens",
    description: "Refresh tokens rotate: each is used once.",
    access: "public",
    body: json(RefreshRequestSchema, one("A refresh token", { refresh_token: exampleAuthResponse.tokens.refresh_token })),
    responses: {
      200: { description: "New tokens.", body: json(AuthTokensSchema, one("Refreshed", exampleAuthResponse.tokens)) },
      400: error("The body holds no refresh token string (or is not JSON).", one("No refresh token", exampleErrors.invalidRefreshToken)),
      401: error("The refresh token is invalid, used or expired.", one("Expired", exampleErrors.invalidRefreshToken)),
      429: tooManyRequests,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/auth/logout",
    tag: "auth",
    operationId: "logout",
    summary: "Sign out",
    access: "bearer",
    responses: { 200: { description: "Signed out.", body: json(AuthMessageResponseSchema, one("Signed out", { message: AUTH_MESSAGES.signedOut })) }, 401: unauthorized },
  }),
  defineEndpoint({
    method: "get",
    path: "/api/auth/admin-check",
    tag: "auth",
    operationId: "adminCheck",
    summary: "Am I an admin?",
    access: "bearer",
    responses: { 200: { description: "The caller's role.", body: json(AdminCheckResponseSchema, one("Not an admin", { is_admin: false })) }, 401: unauthorized },
  }),
] as const;
