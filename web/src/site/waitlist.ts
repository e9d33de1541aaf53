import { ENDPOINTS } from "@sd/contracts/endpoints";
import { ApiError } from "../api/client";
import { callEndpoint } from "../api/endpoint";

/** Shown when the waitlist request fails without an answer from the server. */
export const WAITLIST_NETWORK_ERROR = "Something went wrong. Please try again later.";

/** Fallback when the server accepts an email without saying anything. */
const JOINED_FALLBACK = "You're on the waitlist.";

export type WaitlistResult = { ok: true; message: string } | { ok: false; message: string };

const text = (value: string): string | null => (value.trim() !== "" ? value : null);

/**
 * A refusal as the form words it: the server's explanation (`message`, or the rate limiter's
 * `detail`), else the network-failure text (no answer, a body that is not JSON, an answer that
 * says nothing, or a 2xx answer that is not `{success, message}`).
 */
function refusal(error: unknown): WaitlistResult {
  return { ok: false, message: error instanceof ApiError && error.explained ? error.message : WAITLIST_NETWORK_ERROR };
}

/**
 * POST /api/email-request `{email}` (the email already trimmed). Never throws: the result carries
 * the server's `message` (or the rate limiter's `detail`), or the network-failure text.
 */
export async function joinWaitlist(email: string): Promise<WaitlistResult> {
  try {
    const answer = await callEndpoint(ENDPOINTS.joinWaitlist, { body: { email } });
    if (answer.success) return { ok: true, message: text(answer.message) ?? JOINED_FALLBACK };
    return { ok: false, message: text(answer.message) ?? WAITLIST_NETWORK_ERROR };
  } catch (error) {
    return refusal(error);
  }
}
