/**
 * Seconds until the server will take the request again, as a refusal's headers say: `Retry-After`
 * (seconds or an HTTP date), else the IETF `RateLimit` header's `t=` (draft 8), else
 * `RateLimit-Reset` (drafts 6 and 7). Null when none says (or a cross-origin answer hides them).
 */
export function retryAfterSeconds(headers: Headers, nowMs: number): number | null {
  const retryAfter = headers.get("retry-after")?.trim();
  if (retryAfter) {
    if (/^\d+$/.test(retryAfter)) return Number(retryAfter);
    const at = Date.parse(retryAfter);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - nowMs) / 1000));
  }
  const reset = /(?:^|[;\s])t=(\d+)/.exec(headers.get("ratelimit") ?? "")?.[1] ?? headers.get("ratelimit-reset")?.trim();
  return reset && /^\d+$/.test(reset) ? Number(reset) : null;
}
