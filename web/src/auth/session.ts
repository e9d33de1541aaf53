import { AuthTokensSchema, AuthUserSchema, type AuthTokens, type AuthUser } from "@sd/contracts";
import { isAccessTokenExpired } from "./jwt";

/** Where the session lives on the device: local storage, as JSON. */
export const SESSION_STORAGE_KEYS = { user: "auth_user", tokens: "auth_token" } as const;

/** The window event that makes the session reload from storage. */
export const AUTH_STATE_CHANGED = "authStateChanged";

/** How often the access token's expiry is checked. */
export const EXPIRY_CHECK_INTERVAL_MS = 60_000;

/** What a signed-in user whose session expired is told. */
export const SESSION_EXPIRED_NOTICE = "Session expired. You can still make predictions without signing in again.";

/** The part of Web Storage the session uses (localStorage in the browser, a fake in tests). */
export type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

/**
 * What storage holds: no session, a session whose access token has expired (its refresh token,
 * which lives for days, may still renew it), or a valid one.
 */
export type StoredSession = { kind: "none" } | { kind: "expired" | "valid"; user: AuthUser; tokens: AuthTokens };

function parseStored<T>(text: string | null, schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } }): T | null {
  if (text === null) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Reads the stored user and tokens; anything unreadable counts as no session. */
export function readStoredSession(storage: KeyValueStorage, nowMs: number): StoredSession {
  const user = parseStored(storage.getItem(SESSION_STORAGE_KEYS.user), AuthUserSchema);
  const tokens = parseStored(storage.getItem(SESSION_STORAGE_KEYS.tokens), AuthTokensSchema);
  if (!user || !tokens) return { kind: "none" };
  return { kind: isAccessTokenExpired(tokens.access_token, nowMs) ? "expired" : "valid", user, tokens };
}

export function clearStoredSession(storage: KeyValueStorage): void {
  storage.removeItem(SESSION_STORAGE_KEYS.user);
  storage.removeItem(SESSION_STORAGE_KEYS.tokens);
}

export interface SessionState {
  /** Loading until storage has been read, and while a stored session's expired access token is renewed. */
  status: "loading" | "ready";
  user: AuthUser | null;
  tokens: AuthTokens | null;
  /** The last session ended because its access token expired (or could not be refreshed). */
  expired: boolean;
}

export const LOADING_SESSION: SessionState = { status: "loading", user: null, tokens: null, expired: false };

/**
 * Whenever user and tokens both exist they are saved to storage; otherwise storage is cleared.
 * Nothing is written while the session is still loading (storage has not been read yet).
 */
export function persistSession(storage: KeyValueStorage, state: SessionState): void {
  if (state.status === "loading") return;
  if (state.user && state.tokens) {
    storage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(state.user));
    storage.setItem(SESSION_STORAGE_KEYS.tokens, JSON.stringify(state.tokens));
  } else {
    clearStoredSession(storage);
  }
}

export type SessionAction =
  | { type: "loaded"; stored: StoredSession }
  | { type: "signed-in"; user: AuthUser; tokens: AuthTokens }
  | { type: "tokens-refreshed"; tokens: AuthTokens }
  /** The refresh could not reach the server (offline, 5xx): the session is kept for a later try. */
  | { type: "refresh-unavailable" }
  | { type: "signed-out" }
  | { type: "expired" };

const SIGNED_OUT: SessionState = { status: "ready", user: null, tokens: null, expired: false };
const EXPIRED: SessionState = { status: "ready", user: null, tokens: null, expired: true };

/** The session's transitions. */
export function sessionReducer(state: SessionState, action: SessionAction): SessionState {
  switch (action.type) {
    case "loaded":
      if (action.stored.kind === "valid") return { status: "ready", user: action.stored.user, tokens: action.stored.tokens, expired: false };
      // Still loading: the controller renews the expired access token, and only a refused renewal ends the session.
      if (action.stored.kind === "expired") return { status: "loading", user: action.stored.user, tokens: action.stored.tokens, expired: false };
      // Nothing stored: signed out, still remembering whether the last session expired.
      return state.status === "ready" && !state.user && !state.tokens ? state : { ...SIGNED_OUT, expired: state.expired };
    case "signed-in":
      return { status: "ready", user: action.user, tokens: action.tokens, expired: false };
    case "tokens-refreshed":
      // A refresh that lands after the user signed out does not sign them back in.
      return state.user ? { status: "ready", user: state.user, tokens: action.tokens, expired: false } : state;
    case "refresh-unavailable":
      return state.status === "loading" && state.user ? { ...state, status: "ready" } : state;
    case "signed-out":
      return SIGNED_OUT;
    case "expired":
      return EXPIRED;
  }
}

/** Authenticated means user and tokens are present and the access token has not expired. */
export function isAuthenticated(state: Pick<SessionState, "user" | "tokens">, nowMs: number): boolean {
  return Boolean(state.user && state.tokens && !isAccessTokenExpired(state.tokens.access_token, nowMs));
}

/** The console's display name: the name, else the part of the email before the @, else 'User'. */
export function displayName(user: Pick<AuthUser, "name" | "email">): string {
  return user.name?.trim() || user.email.split("@")[0]?.trim() || "User";
}

/** The avatar menu's name line: the name, or 'User'. */
export function menuName(user: Pick<AuthUser, "name">): string {
  return user.name?.trim() || "User";
}

/** One or two letters for the avatar: from the name, else from the email. */
export function initials(user: Pick<AuthUser, "name" | "email">): string {
  const words = (user.name ?? "").trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 0 ? words.slice(0, 2).map((w) => [...w][0]) : [[...user.email.trim()][0]];
  return letters.join("").toUpperCase() || "U";
}
