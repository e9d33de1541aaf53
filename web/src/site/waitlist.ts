/** Shown when the waitlist request fails without an answer from the server (specification section 8). */
export const WAITLIST_NETWORK_ERROR = "Something went wrong. Please try again later.";

/** Fallback when the server accepts an email without saying anything. */
const JOINED_FALLBACK = "You're on the waitlist.";

export type WaitlistResult = { ok: true; message: string } | { ok: false; message: string };

const text = (value: unknown): string | null => (typeof value === "string" && value.trim() !== "" ? value : null);

/**
 * POST /api/email-request `{email}` (the email already trimmed). Never throws: the result carries
 * the server's `message` (or the rate limiter's `detail`), or the network-failure text.
 */
export async function joinWaitlist(email: string, fetcher: typeof fetch = fetch): Promise<WaitlistResult> {
  let response: Response;
  let body: { success?: unknown; message?: unknown; detail?: unknown };
  try {
    response = await fetcher("/api/email-request", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    body = (await response.json()) as typeof body;
  } catch {
    return { ok: false, message: WAITLIST_NETWORK_ERROR };
  }
  if (typeof body !== "object" || body === null) return { ok: false, message: WAITLIST_NETWORK_ERROR };
  if (response.ok && body.success === true) return { ok: true, message: text(body.message) ?? JOINED_FALLBACK };
  return { ok: false, message: text(body.message) ?? text(body.detail) ?? WAITLIST_NETWORK_ERROR };
}
