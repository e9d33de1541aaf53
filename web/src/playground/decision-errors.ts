import { ApiError, InvalidResponseError } from "../api/client";
import { PLAYGROUND_TEXT } from "./messages";

const AUTHENTICATION_PROBLEM = /Not authenticated|403|Could not validate credentials/;

/**
 * The text a failed decision request shows under the 'Error' title:
 * 413 means the images are too large; a success body that is not a decision response (the API
 * client's InvalidResponseError) and authentication problems have fixed texts; otherwise the
 * server's explanation, else the fallback.
 */
export function decisionErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 413) return PLAYGROUND_TEXT.imagesTooLarge;
  if (error instanceof InvalidResponseError) return PLAYGROUND_TEXT.invalidResponse;
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  if (AUTHENTICATION_PROBLEM.test(message)) return PLAYGROUND_TEXT.authenticationExpired;
  // Only the server's own explanations are shown: not a network failure ("Failed to fetch"), nor a
  // bare status ('HTTP 502' from a proxy page), since other error codes are not shown to users.
  if (error instanceof ApiError && error.explained) return message;
  return PLAYGROUND_TEXT.decisionFailedFallback;
}

/**
 * The text under 'Error getting suggestions': the server's explanation, else 'HTTP {status}' (both
 * read by the API client), else 'Failed to get suggestions' (no answer, or one that is not suggestions).
 */
export function suggestionsErrorText(error: unknown): string {
  const readable = error instanceof ApiError && !(error instanceof InvalidResponseError) && error.message.trim() !== "";
  return readable ? error.message : PLAYGROUND_TEXT.suggestionsFailedFallback;
}
