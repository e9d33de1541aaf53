/** base64url (RFC 4648 section 5, padding optional) to bytes; null when it is not base64url. */
function base64UrlBytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return null;
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=");
  try {
    return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

/**
 * The `exp` claim (seconds since the epoch) of a JWT, read from its payload WITHOUT verifying the
 * signature: the client only uses it to know when to stop sending the token (the server verifies).
 * Null when the token is not a JWT or carries no numeric `exp`.
 */
export function jwtExpiry(token: string): number | null {
  const parts = token.split(".");
  if (parts.length !== 3 || !parts[1]) return null;
  const bytes = base64UrlBytes(parts[1]);
  if (!bytes) return null;
  try {
    const payload: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    if (typeof payload !== "object" || payload === null || !("exp" in payload)) return null;
    return typeof payload.exp === "number" && Number.isFinite(payload.exp) ? payload.exp : null;
  } catch {
    return null;
  }
}

/** True when the access token has expired at `nowMs`; a token whose expiry cannot be read counts as expired. */
export function isAccessTokenExpired(accessToken: string, nowMs: number): boolean {
  const exp = jwtExpiry(accessToken);
  return exp === null || exp * 1000 <= nowMs;
}
