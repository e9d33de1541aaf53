import type { KeyValueStorage } from "./session";

/** The session-storage key of the Google sign-in's `state`. */
export const GOOGLE_OAUTH_STATE_KEY = "google_oauth_state";

/** The `state` of the Google sign-in in progress, kept in session storage across the trip to Google. */
export function googleOAuthState(storage: KeyValueStorage) {
  return {
    save: (state: string) => storage.setItem(GOOGLE_OAUTH_STATE_KEY, state),
    read: (): string | null => storage.getItem(GOOGLE_OAUTH_STATE_KEY),
    clear: () => storage.removeItem(GOOGLE_OAUTH_STATE_KEY),
  };
}
export type GoogleOAuthState = ReturnType<typeof googleOAuthState>;
