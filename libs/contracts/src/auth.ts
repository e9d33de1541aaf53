import { z } from "zod";
import { EMAIL_MESSAGES, EmailSchema } from "./email";

/** Texts of the account endpoints (the specification's where it words them). */
export const AUTH_MESSAGES = {
  emailRequired: EMAIL_MESSAGES.required.detail,
  invalidEmail: EMAIL_MESSAGES.invalid,
  /** The magic-link request answers this whether or not the email has an account. */
  magicLinkSent: "Check your email for a sign-in link.",
  magicLinkMailFailed: "We could not send the sign-in email. Please try again in a moment.",
  invalidMagicLink: "This sign-in link is invalid, was already used or has expired. Please request a new one.",
  tokenRequired: "A sign-in token is required.",
  /** A missing, expired or otherwise bad bearer token (the web client refreshes on this text). */
  invalidCredentials: "Could not validate credentials",
  invalidRefreshToken: "The session has expired or was signed out. Please sign in again.",
  googleNotConfigured: "Google sign-in is not configured.",
  googleUnavailable: "Google sign-in is unavailable right now. Please try again in a moment.",
  invalidGoogleState: "This Google sign-in attempt is invalid or has expired. Please try again.",
  googleFailed: "Google authentication failed",
  googleEmailUnverified: "Your Google account's email address is not verified.",
  signedOut: "Signed out.",
} as const;

/** A sign-in email: trimmed, required, lower-cased (accounts are keyed by it). */
export const SignInEmailSchema = EmailSchema.transform((email) => email.toLowerCase());

/** Body of POST /api/auth/magic-link/request. */
export const MagicLinkRequestSchema = z.object({ email: SignInEmailSchema });
export type MagicLinkRequest = z.infer<typeof MagicLinkRequestSchema>;

/** Body of POST /api/auth/magic-link/verify. */
export const MagicLinkVerifySchema = z.object({
  token: z.string({ error: AUTH_MESSAGES.tokenRequired }).trim().min(1, AUTH_MESSAGES.tokenRequired).max(512, AUTH_MESSAGES.invalidMagicLink),
});
export type MagicLinkVerify = z.infer<typeof MagicLinkVerifySchema>;

/** Body of POST /api/auth/google/callback: the query parameters Google redirected to /auth/callback with. */
export const GoogleCallbackSchema = z.object({
  code: z.string({ error: AUTH_MESSAGES.googleFailed }).min(1, AUTH_MESSAGES.googleFailed).max(4096, AUTH_MESSAGES.googleFailed),
  state: z.string({ error: AUTH_MESSAGES.invalidGoogleState }).min(1, AUTH_MESSAGES.invalidGoogleState).max(512, AUTH_MESSAGES.invalidGoogleState),
  /** The `iss` parameter (RFC 9207) when the provider sent one; checked when present. */
  iss: z.string().max(2048).optional(),
});
export type GoogleCallback = z.infer<typeof GoogleCallbackSchema>;

/** Body of POST /api/auth/refresh. */
export const RefreshRequestSchema = z.object({
  refresh_token: z.string({ error: AUTH_MESSAGES.invalidRefreshToken }).min(1, AUTH_MESSAGES.invalidRefreshToken).max(512, AUTH_MESSAGES.invalidRefreshToken),
});
export type RefreshRequest = z.infer<typeof RefreshRequestSchema>;

/** Auth user. `name` is null for magic-link users. */
export const AuthUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  is_verified: z.boolean(),
  avatar_url: z.string().nullable(),
});
export type AuthUser = z.infer<typeof AuthUserSchema>;

/** Auth tokens; `expires_in` is the access token's life in seconds. */
export const AuthTokensSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int().positive(),
  token_type: z.literal("bearer"),
});
export type AuthTokens = z.infer<typeof AuthTokensSchema>;

/** Answer of a completed sign-in (magic link or Google). */
export const AuthResponseSchema = z.object({ user: AuthUserSchema, tokens: AuthTokensSchema });
export type AuthResponse = z.infer<typeof AuthResponseSchema>;

export const AdminCheckResponseSchema = z.object({ is_admin: z.boolean(), error: z.string().optional() });
export type AdminCheckResponse = z.infer<typeof AdminCheckResponseSchema>;

/** Answer of POST /api/auth/magic-link/request and POST /api/auth/logout: a sentence for the user. */
export const AuthMessageResponseSchema = z.object({ message: z.string() });
export type AuthMessageResponse = z.infer<typeof AuthMessageResponseSchema>;

/** Answer of GET /api/auth/google/authorize: where to send the browser, and the state it comes back with. */
export const GoogleAuthorizationSchema = z.object({ state: z.string().min(1), authorization_url: z.string().min(1) });
export type GoogleAuthorization = z.infer<typeof GoogleAuthorizationSchema>;
