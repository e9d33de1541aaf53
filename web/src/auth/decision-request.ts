import type { DecisionResponse } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { SignedOutError, type AuthorizationSource } from "../api/authorized";
import { callEndpoint, type EndpointRequest } from "../api/endpoint";

/** The decision endpoints' paths (both take the same body and answer the same decision). */
export const DECISION_ENDPOINTS = {
  authenticated: ENDPOINTS.decide.path,
  public: ENDPOINTS.decidePublic.path,
} as const;

/** A decision request's JSON body, as both decision endpoints accept it. */
export type DecisionRequestInput = EndpointRequest<typeof ENDPOINTS.decide>["body"];

/**
 * POSTs a decision request as the session allows: to the authenticated endpoint with the bearer
 * token when signed in (an expired token is renewed first; a 401 'Could not validate credentials'
 * refreshes the token once and retries); to the public endpoint when signed out or when that
 * refresh fails. A non-2xx answer throws ApiError; a 2xx answer that is not a decision response
 * throws InvalidResponseError.
 */
export async function postDecision(body: DecisionRequestInput, session: AuthorizationSource): Promise<DecisionResponse> {
  try {
    return await callEndpoint(ENDPOINTS.decide, { body }, session);
  } catch (error) {
    if (!(error instanceof SignedOutError)) throw error;
  }
  return callEndpoint(ENDPOINTS.decidePublic, { body });
}
