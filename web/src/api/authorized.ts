import { AUTH_MESSAGES } from "@sd/contracts";
import type { z } from "zod";
import { ApiError, apiRequest, type ApiRequest } from "./client";

/** The outcome of one token refresh. */
export type RefreshResult = { ok: true; accessToken: string } | { ok: false; error: string };

/** What an authorized request needs from the session. */
export interface AuthorizationSource {
  /** The access token of a signed-in session whose token has not expired; null otherwise. */
  accessToken(): string | null;
  /**
   * Exchanges the refresh token for new tokens (one exchange shared by concurrent callers); when the
   * server refuses it the user is logged out. Fails at once, without a call, when not signed in.
   */
  refresh(): Promise<RefreshResult>;
}

/** The request could not be made as the user: not signed in, or the session ended (its refresh failed). */
export class SignedOutError extends ApiError {
  constructor(message: string = AUTH_MESSAGES.invalidCredentials) {
    super(401, message, { source: "client" });
    this.name = "SignedOutError";
  }
}

/** The server's answer to a missing, expired or revoked access token. */
export function isInvalidCredentials(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.message.includes(AUTH_MESSAGES.invalidCredentials);
}

/** Fetch options carrying an access token as the bearer header. */
export const bearer = (accessToken: string): RequestInit => ({ headers: { authorization: `Bearer ${accessToken}` } });

/** A new access token from the session's refresh token, or SignedOutError when there is none. */
async function renewedAccessToken(session: AuthorizationSource): Promise<string> {
  const refreshed = await session.refresh();
  if (!refreshed.ok) throw new SignedOutError(refreshed.error);
  return refreshed.accessToken;
}

/**
 * Runs `call` with the session's bearer token; an access token that has expired is renewed first.
 * A 401 'Could not validate credentials' refreshes the tokens once and retries with the new access
 * token; when a refresh fails (the session may then be logged out) or there is no session, it
 * throws SignedOutError.
 */
export async function withAuthorization<T>(session: AuthorizationSource, call: (init: RequestInit) => Promise<T>): Promise<T> {
  const accessToken = session.accessToken();
  // No valid token: renew an expired one (signed out, the refresh fails at once and no call is made).
  if (!accessToken) return call(bearer(await renewedAccessToken(session)));
  try {
    return await call(bearer(accessToken));
  } catch (error) {
    if (!isInvalidCredentials(error)) throw error;
  }
  return call(bearer(await renewedAccessToken(session)));
}

/** The request's own fetch options plus the authorization header (its other headers are kept). */
function authorize(own: RequestInit | undefined, authorization: RequestInit): RequestInit {
  const headers = new Headers(own?.headers);
  new Headers(authorization.headers).forEach((value, name) => headers.set(name, value));
  return { ...own, headers };
}

/** `apiRequest` as the signed-in user (bearer token, one refresh-and-retry on 'Could not validate credentials'). */
export const authorizedRequest = <S extends z.ZodType>(path: string, request: ApiRequest<S>, session: AuthorizationSource): Promise<z.infer<S>> =>
  withAuthorization(session, (init) => apiRequest(path, { ...request, init: authorize(request.init, init) }));
