import { AUTH_MESSAGES } from "@sd/contracts";
import { ApiError, getJson, postJson } from "./client";

/** The outcome of one token refresh. */
export type RefreshResult = { ok: true; accessToken: string } | { ok: false; error: string };

/** What an authorized request needs from the session. */
export interface AuthorizationSource {
  /** The access token of a signed-in session whose token has not expired; null otherwise. */
  accessToken(): string | null;
  /** Exchanges the refresh token for new tokens (one exchange shared by concurrent callers); on failure the user is logged out. */
  refresh(): Promise<RefreshResult>;
}

/** The request could not be made as the user: not signed in, or the session ended (its refresh failed). */
export class SignedOutError extends ApiError {
  constructor(message: string = AUTH_MESSAGES.invalidCredentials) {
    super(401, message);
    this.name = "SignedOutError";
  }
}

/** The server's answer to a missing, expired or revoked access token. */
export function isInvalidCredentials(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.message.includes(AUTH_MESSAGES.invalidCredentials);
}

const bearer = (accessToken: string): RequestInit => ({ headers: { authorization: `Bearer ${accessToken}` } });

/**
 * Runs `call` with the session's bearer token. A 401 'Could not validate credentials' refreshes the
 * tokens once and retries with the new access token; when the refresh fails (the session is then
 * logged out) or there is no valid session, it throws SignedOutError.
 */
export async function withAuthorization<T>(session: AuthorizationSource, call: (init: RequestInit) => Promise<T>): Promise<T> {
  const accessToken = session.accessToken();
  if (!accessToken) throw new SignedOutError();
  try {
    return await call(bearer(accessToken));
  } catch (error) {
    if (!isInvalidCredentials(error)) throw error;
  }
  const refreshed = await session.refresh();
  if (!refreshed.ok) throw new SignedOutError(refreshed.error);
  return call(bearer(refreshed.accessToken));
}

export const authorizedGetJson = <T>(path: string, session: AuthorizationSource): Promise<T> =>
  withAuthorization(session, (init) => getJson<T>(path, init));

export const authorizedPostJson = <T>(path: string, body: unknown, session: AuthorizationSource): Promise<T> =>
  withAuthorization(session, (init) => postJson<T>(path, body, init));
