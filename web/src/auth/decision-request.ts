import { authorizedPostJson, SignedOutError, type AuthorizationSource } from "../api/authorized";
import { postJson } from "../api/client";

/** The decision endpoints (specification section 7). */
export const DECISION_ENDPOINTS = {
  authenticated: "/api/ensembled-llm-categorical-decision",
  public: "/api/ensembled-llm-categorical-decision-public",
} as const;

/**
 * POSTs a decision request as the session allows (specification sections 7 and 8): to the
 * authenticated endpoint with the bearer token when signed in with a valid token (a 401
 * 'Could not validate credentials' refreshes the token once and retries); to the public endpoint
 * when signed out, expired, or when that refresh fails. Returns the parsed JSON answer; a non-2xx
 * answer throws ApiError, a 2xx body that is not JSON throws SyntaxError (as postJson does).
 */
export async function postDecision(body: unknown, session: AuthorizationSource): Promise<unknown> {
  if (session.accessToken() !== null) {
    try {
      return await authorizedPostJson<unknown>(DECISION_ENDPOINTS.authenticated, body, session);
    } catch (error) {
      if (!(error instanceof SignedOutError)) throw error;
    }
  }
  return postJson<unknown>(DECISION_ENDPOINTS.public, body);
}
