import { ApiError } from "../api/client";
import { PLAYGROUND_TEXT } from "./messages";

/** A 2xx decision answer whose body is not a decision response. */
export class InvalidResponseError extends Error {
  constructor() {
    super(PLAYGROUND_TEXT.invalidResponse);
    this.name = "InvalidResponseError";
  }
}

const AUTHENTICATION_PROBLEM = /Not authenticated|403|Could not validate credentials/;

/**
 * The text a failed decision request shows under the 'Error' title (specification section 8):
 * 413 means the images are too large; an unparseable success body and authentication problems
 * have fixed texts; otherwise the server's explanation, else the fallback.
 */
export function decisionErrorMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 413) return PLAYGROUND_TEXT.imagesTooLarge;
  if (error instanceof InvalidResponseError) return PLAYGROUND_TEXT.invalidResponse;
  const message = error instanceof Error ? error.message : typeof error === "string" ? error : "";
  if (AUTHENTICATION_PROBLEM.test(message)) return PLAYGROUND_TEXT.authenticationExpired;
  // Only the server's own explanations are shown; a network failure ("Failed to fetch") is not one.
  if (error instanceof ApiError && message.trim() !== "") return message;
  return PLAYGROUND_TEXT.decisionFailedFallback;
}
