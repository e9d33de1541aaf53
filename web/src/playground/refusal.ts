import { MESSAGES } from "@sd/contracts";
import { ApiError } from "../api/client";

/** Why the server turned a decision away before asking any model, and when it takes one again. */
export interface Refusal {
  /** "rate-limited": a 429 (too many requests, or a quota); "busy": a 503 that says when to come back. */
  kind: "rate-limited" | "busy";
  title: string;
  /** The server's explanation, else ours. */
  message: string;
  /** Epoch ms from which the server takes decisions again; null when it did not say. */
  retryAt: number | null;
}

/** The notice's titles and the texts used when the server gave none (the specification has none for refusals). */
export const REFUSAL_TEXT = {
  rateLimitedTitle: "Too many decisions",
  busyTitle: "Smart Decision is busy",
  rateLimitedFallback: "Too many requests. Please wait a minute and try again.",
  busyFallback: MESSAGES.overloaded,
  noModelAsked: "No model was asked, so none failed.",
  tryAgainNow: "You can try again now.",
} as const;

/**
 * The refusal a failed decision request is, or null when it is a failure: a 429, or a 503 with
 * Retry-After (busy; a 503 without one is an outage or a lost decision, which stays a failure).
 */
export function decisionRefusal(error: unknown, nowMs: number): Refusal | null {
  if (!(error instanceof ApiError)) return null;
  const retryAt = error.retryAfterSeconds === null ? null : nowMs + error.retryAfterSeconds * 1000;
  if (error.status === 429) {
    return { kind: "rate-limited", title: REFUSAL_TEXT.rateLimitedTitle, message: error.explained ? error.message : REFUSAL_TEXT.rateLimitedFallback, retryAt };
  }
  if (error.status === 503 && retryAt !== null) {
    return { kind: "busy", title: REFUSAL_TEXT.busyTitle, message: error.explained ? error.message : REFUSAL_TEXT.busyFallback, retryAt };
  }
  return null;
}

/** Whole seconds left until `retryAt` (rounded up, so "0" means now); 0 when there is no wait. */
export function secondsLeft(retryAt: number | null, nowMs: number): number {
  return retryAt === null ? 0 : Math.max(0, Math.ceil((retryAt - nowMs) / 1000));
}

/** A wait as a person says it: "42 s", "3 min 5 s", "2 h 10 min", "3 days". */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return s % 60 === 0 ? `${s / 60} min` : `${Math.floor(s / 60)} min ${s % 60} s`;
  if (s < 86_400) {
    const minutes = Math.ceil((s % 3600) / 60);
    const hours = Math.floor(s / 3600) + (minutes === 60 ? 1 : 0);
    return minutes === 0 || minutes === 60 ? `${hours} h` : `${hours} h ${minutes} min`;
  }
  const days = Math.ceil(s / 86_400);
  return days === 1 ? "1 day" : `${days} days`;
}

/** The notice's line about when to try again, `left` seconds before it may: the countdown, or "now" once it has run out. */
export function retryLine(refusal: Refusal, left: number): string | null {
  if (refusal.retryAt === null) return null;
  return left === 0 ? REFUSAL_TEXT.tryAgainNow : `You can try again in ${formatWait(left)}.`;
}
