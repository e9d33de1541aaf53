import { AUTH_MESSAGES, type AuthResponse, type AuthTokens, type AuthUser } from "@sd/contracts";
import { AUTH_FALLBACKS, authErrorText } from "./auth-api";
import type { GoogleOAuthState } from "./google-oauth-state";

/** Texts of /auth/callback. */
export const CALLBACK_TEXT = {
  errorTitle: "Authentication Error",
  cancelled: "Authentication was cancelled or failed.",
  invalidTitle: "Invalid Request",
  invalid: "No valid authentication parameters found.",
  successTitle: "Success!",
  success: "You have been signed in successfully.",
} as const;

/** What /auth/callback was opened with. */
export type CallbackRequest =
  | { kind: "error" }
  | { kind: "magic-link"; token: string }
  | { kind: "google"; code: string; state: string; iss?: string }
  | { kind: "invalid" };

/** Reads the callback's query: an error, else a magic-link token, else Google's code and state. */
export function callbackRequest(params: URLSearchParams): CallbackRequest {
  if (params.get("error")) return { kind: "error" };
  const token = params.get("token");
  if (token) return { kind: "magic-link", token };
  const code = params.get("code");
  const state = params.get("state");
  const iss = params.get("iss");
  if (code && state) return { kind: "google", code, state, ...(iss ? { iss } : {}) };
  return { kind: "invalid" };
}

export interface CallbackDeps {
  verifyMagicLink(token: string): Promise<AuthResponse>;
  googleCallback(params: { code: string; state: string; iss?: string }): Promise<AuthResponse>;
  googleState: GoogleOAuthState;
  signIn(user: AuthUser, tokens: AuthTokens): void;
  notify: { success(title: string, description: string): void; error(title: string, description: string): void };
}

/**
 * Completes a sign-in from the callback's parameters: signs in and tells the user, or tells them
 * why not. Returns where to go next: /console when signed in, else /.
 */
export async function completeCallback(request: CallbackRequest, deps: CallbackDeps): Promise<"/console" | "/"> {
  const signedIn = ({ user, tokens }: AuthResponse) => {
    deps.signIn(user, tokens);
    deps.notify.success(CALLBACK_TEXT.successTitle, CALLBACK_TEXT.success);
    return "/console" as const;
  };
  const failed = (description: string) => {
    deps.notify.error(CALLBACK_TEXT.errorTitle, description);
    return "/" as const;
  };

  switch (request.kind) {
    case "error":
      deps.googleState.clear();
      return failed(CALLBACK_TEXT.cancelled);
    case "invalid":
      deps.notify.error(CALLBACK_TEXT.invalidTitle, CALLBACK_TEXT.invalid);
      return "/";
    case "magic-link":
      try {
        return signedIn(await deps.verifyMagicLink(request.token));
      } catch (error) {
        return failed(authErrorText(error, AUTH_FALLBACKS.magicLinkVerification));
      }
    case "google": {
      const expected = deps.googleState.read();
      // The state is single-use: cleared whatever happens next.
      deps.googleState.clear();
      // Not the sign-in this browser started (or its state is gone): never sent to the server.
      if (expected === null || expected !== request.state) return failed(AUTH_MESSAGES.invalidGoogleState);
      const { kind: _kind, ...params } = request;
      try {
        return signedIn(await deps.googleCallback(params));
      } catch (error) {
        return failed(authErrorText(error, AUTH_FALLBACKS.googleAuthentication));
      }
    }
  }
}
