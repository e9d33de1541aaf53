import { DecisionResponseSchema, type DecisionResponse } from "@sd/contracts";
import { authorizedRequest, SignedOutError, type AuthorizationSource } from "../api/authorized";
import { apiRequest } from "../api/client";

/** The decision endpoints. */
export const DECISION_ENDPOINTS = {
  authenticated: "/api/ensembled-llm-categorical-decision",
  public: "/api/ensembled-llm-categorical-decision-public",
} as const;

/**
 * POSTs a decision request as the session allows: to the
 * authenticated endpoint with the bearer token when signed in with a valid token (a 401
 * 'Could not validate credentials' refreshes the token once and retries); to the public endpoint
 * when signed out, expired, or when that refresh fails. A non-2xx answer throws ApiError; a 2xx
 * answer that is not a decision response throws InvalidResponseError.
 */
export async function postDecision(body: unknown, session: AuthorizationSource): Promise<DecisionResponse> {
  const request = { method: "POST", body, schema: DecisionResponseSchema } as const;
  if (session.accessToken() !== null) {
    try {
      return await authorizedRequest(DECISION_ENDPOINTS.authenticated, request, session);
    } catch (error) {
      if (!(error instanceof SignedOutError)) throw error;
    }
  }
  return apiRequest(DECISION_ENDPOINTS.public, request);
}
